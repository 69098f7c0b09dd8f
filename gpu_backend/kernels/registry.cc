// The one explicit list of GPU kernels: ONNX op -> descriptor.
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {

const std::vector<KernelEntry>& KernelRegistry() {
  static const std::vector<KernelEntry> kernels = {
      {"Add", BuildElementwiseBinary},
      {"Sub", BuildElementwiseBinary},
      {"Mul", BuildElementwiseBinary},
      {"Div", BuildElementwiseBinary},
      {"Pow", BuildElementwiseBinary},
      {"MaxPool", BuildPool},
      {"AveragePool", BuildPool},
      {"GlobalAveragePool", BuildPool},
      {"GlobalMaxPool", BuildPool},
      {"Concat", BuildConcat},
      {"Resize", BuildResize},
      {"Upsample", BuildResize},
      {"Relu", BuildElementwiseUnary},
      {"Clip", BuildElementwiseUnary},
      {"Sigmoid", BuildElementwiseUnary},
      {"Tanh", BuildElementwiseUnary},
      {"HardSigmoid", BuildElementwiseUnary},
      {"HardSwish", BuildElementwiseUnary},
      {"LeakyRelu", BuildElementwiseUnary},
      {"PRelu", BuildElementwiseUnary},
      {"Elu", BuildElementwiseUnary},
      {"Sqrt", BuildElementwiseUnary},
      {"Exp", BuildElementwiseUnary},
      {"Erf", BuildElementwiseUnary},
      {"Neg", BuildElementwiseUnary},
      {"Abs", BuildElementwiseUnary},
      {"Reciprocal", BuildElementwiseUnary},
      {"Log", BuildElementwiseUnary},
      {"Floor", BuildElementwiseUnary},
      {"Ceil", BuildElementwiseUnary},
      {"Round", BuildElementwiseUnary},
      {"Sign", BuildElementwiseUnary},
      {"Sin", BuildElementwiseUnary},
      {"Cos", BuildElementwiseUnary},
      {"Softplus", BuildElementwiseUnary},
      {"Softsign", BuildElementwiseUnary},
      {"Selu", BuildElementwiseUnary},
      {"Celu", BuildElementwiseUnary},
      {"ThresholdedRelu", BuildElementwiseUnary},
      {"Conv", BuildConv},
      {"ConvTranspose", BuildConvTranspose},
      {"Gemm", BuildGemm},
      {"MatMul", BuildMatMul},
      {"Softmax", BuildSoftmax},
      {"LogSoftmax", BuildSoftmax},
      {"Transpose", BuildStridedCopy},
      {"Slice", BuildStridedCopy},
      {"Split", BuildStridedCopy},
      {"DepthToSpace", BuildStridedCopy},
      {"SpaceToDepth", BuildStridedCopy},
      {"Reshape", BuildStridedCopy},
      {"Flatten", BuildStridedCopy},
      {"Squeeze", BuildStridedCopy},
      {"Unsqueeze", BuildStridedCopy},
      {"Identity", BuildStridedCopy},
      {"Pad", BuildPad},
      {"ReduceSum", BuildReduce},
      {"ReduceMean", BuildReduce},
      {"ReduceMax", BuildReduce},
      {"ReduceMin", BuildReduce},
      {"ReduceProd", BuildReduce},
      {"ReduceL1", BuildReduce},
      {"ReduceL2", BuildReduce},
      {"ReduceSumSquare", BuildReduce},
      {"ReduceLogSum", BuildReduce},
      {"ReduceLogSumExp", BuildReduce},
      {"BatchNormalization", BuildBatchNormalization},
      {"Tan", BuildElementwiseUnary},
      {"Asin", BuildElementwiseUnary},
      {"Acos", BuildElementwiseUnary},
      {"Atan", BuildElementwiseUnary},
      {"Sinh", BuildElementwiseUnary},
      {"Cosh", BuildElementwiseUnary},
      {"Asinh", BuildElementwiseUnary},
      {"Acosh", BuildElementwiseUnary},
      {"Atanh", BuildElementwiseUnary},
      {"Hardmax", BuildSoftmax},
      {"Cast", BuildStridedCopy},
      {"CastLike", BuildStridedCopy},
      {"Dropout", BuildStridedCopy},
      {"LayerNormalization", BuildNormalization},
      {"InstanceNormalization", BuildNormalization},
      {"Expand", BuildStridedCopy},
      {"Tile", BuildStridedCopy},
  };
  return kernels;
}

const KernelEntry* FindKernel(const std::string& op_type) {
  for (const KernelEntry& entry : KernelRegistry()) {
    if (op_type == entry.op_type) return &entry;
  }
  return nullptr;
}

}  // namespace glpool
