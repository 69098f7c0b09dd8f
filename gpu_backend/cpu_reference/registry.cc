#include "gpu_backend/cpu_reference/registry.h"

#include <algorithm>
#include <set>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {

const std::vector<OpKernelInfo>& RegisteredKernels() {
  constexpr int64_t kMax = kMaxCheckedOpset;
  // Binary ops before opset 7 broadcast through the legacy "broadcast" and
  // "axis" attributes; elementwise_binary.cc maps those to numpy rules.
  static const std::vector<OpKernelInfo> kernels = {
      // Convolution, matrix products, pooling.
      {"Conv", 1, kMax, RunConv},
      {"ConvTranspose", 1, kMax, RunConvTranspose},
      {"Gemm", 1, kMax, RunGemm},
      {"MatMul", 1, kMax, RunMatMul},
      {"MaxPool", 1, kMax, RunMaxPool},
      {"AveragePool", 1, kMax, RunAveragePool},
      {"GlobalAveragePool", 1, kMax, RunGlobalAveragePool},
      {"GlobalMaxPool", 1, kMax, RunGlobalMaxPool},
      // Activations.
      {"Relu", 1, kMax, RunRelu},
      {"Clip", 1, kMax, RunClip},
      {"Sigmoid", 1, kMax, RunSigmoid},
      {"Tanh", 1, kMax, RunTanh},
      {"HardSigmoid", 1, kMax, RunHardSigmoid},
      {"HardSwish", 14, kMax, RunHardSwish},
      {"LeakyRelu", 1, kMax, RunLeakyRelu},
      {"PRelu", 1, kMax, RunPRelu},
      {"Elu", 1, kMax, RunElu},
      {"Selu", 1, kMax, RunSelu},
      {"Celu", 12, kMax, RunCelu},
      {"Softplus", 1, kMax, RunSoftplus},
      {"Softsign", 1, kMax, RunSoftsign},
      {"ThresholdedRelu", 10, kMax, RunThresholdedRelu},
      {"Mish", 18, kMax, RunMish},
      {"Gelu", 20, kMax, RunGelu},
      {"Softmax", 1, kMax, RunSoftmax},
      {"LogSoftmax", 1, kMax, RunLogSoftmax},
      {"Hardmax", 1, kMax, RunHardmax},
      // Broadcasting arithmetic, comparison, logic.
      {"Add", 1, kMax, RunAdd},
      {"Sub", 1, kMax, RunSub},
      {"Mul", 1, kMax, RunMul},
      {"Div", 1, kMax, RunDiv},
      {"Pow", 1, kMax, RunPow},
      {"Mod", 10, kMax, RunMod},
      {"Max", 6, kMax, RunMax},
      {"Min", 6, kMax, RunMin},
      {"Sum", 6, kMax, RunSum},
      {"Mean", 6, kMax, RunMean},
      {"Equal", 1, kMax, RunEqual},
      {"Greater", 1, kMax, RunGreater},
      {"GreaterOrEqual", 12, kMax, RunGreaterOrEqual},
      {"Less", 1, kMax, RunLess},
      {"LessOrEqual", 12, kMax, RunLessOrEqual},
      {"And", 1, kMax, RunAnd},
      {"Or", 1, kMax, RunOr},
      {"Xor", 1, kMax, RunXor},
      {"Where", 9, kMax, RunWhere},
      // Unary math.
      {"Neg", 1, kMax, RunNeg},
      {"Abs", 1, kMax, RunAbs},
      {"Sign", 9, kMax, RunSign},
      {"Reciprocal", 1, kMax, RunReciprocal},
      {"Sqrt", 1, kMax, RunSqrt},
      {"Exp", 1, kMax, RunExp},
      {"Log", 1, kMax, RunLog},
      {"Erf", 9, kMax, RunErf},
      {"Floor", 1, kMax, RunFloor},
      {"Ceil", 1, kMax, RunCeil},
      {"Round", 11, kMax, RunRound},
      {"Sin", 7, kMax, RunSin},
      {"Cos", 7, kMax, RunCos},
      {"Tan", 7, kMax, RunTan},
      {"Asin", 7, kMax, RunAsin},
      {"Acos", 7, kMax, RunAcos},
      {"Atan", 7, kMax, RunAtan},
      {"Sinh", 9, kMax, RunSinh},
      {"Cosh", 9, kMax, RunCosh},
      {"Asinh", 9, kMax, RunAsinh},
      {"Acosh", 9, kMax, RunAcosh},
      {"Atanh", 9, kMax, RunAtanh},
      {"Not", 1, kMax, RunNot},
      // Normalization and reductions.
      {"BatchNormalization", 1, kMax, RunBatchNormalization},
      {"InstanceNormalization", 1, kMax, RunInstanceNormalization},
      // From opset 1: passes.h FuseLayerNormFormula writes it into graphs of
      // any opset (ONNX added the op in 17).
      {"LayerNormalization", 1, kMax, RunLayerNormalization},
      {"GroupNormalization", 18, kMax, RunGroupNormalization},
      {"ReduceSum", 1, kMax, RunReduceSum},
      {"ReduceMean", 1, kMax, RunReduceMean},
      {"ReduceMax", 1, kMax, RunReduceMax},
      {"ReduceMin", 1, kMax, RunReduceMin},
      {"ReduceProd", 1, kMax, RunReduceProd},
      {"ReduceL1", 1, kMax, RunReduceL1},
      {"ReduceL2", 1, kMax, RunReduceL2},
      {"ReduceSumSquare", 1, kMax, RunReduceSumSquare},
      {"ReduceLogSum", 1, kMax, RunReduceLogSum},
      {"ReduceLogSumExp", 1, kMax, RunReduceLogSumExp},
      {"ArgMax", 1, kMax, RunArgMax},
      {"ArgMin", 1, kMax, RunArgMin},
      // Resampling and padding.
      {"Resize", 10, kMax, RunResize},
      {"Upsample", 7, 9, RunUpsample},
      {"Pad", 1, kMax, RunPad},
      // Layout.
      {"Transpose", 1, kMax, RunTranspose},
      {"DepthToSpace", 1, kMax, RunDepthToSpace},
      {"SpaceToDepth", 1, kMax, RunSpaceToDepth},
      {"Reshape", 1, kMax, RunReshape},
      {"Flatten", 1, kMax, RunFlatten},
      {"Squeeze", 1, kMax, RunSqueeze},
      {"Unsqueeze", 1, kMax, RunUnsqueeze},
      {"Identity", 1, kMax, RunIdentity},
      {"Dropout", 1, kMax, RunDropout},
      {"Concat", 1, kMax, RunConcat},
      {"Split", 2, kMax, RunSplit},
      {"Slice", 1, kMax, RunSlice},
      {"Gather", 1, kMax, RunGather},
      {"GatherElements", 11, kMax, RunGatherElements},
      {"Expand", 8, kMax, RunExpand},
      {"Tile", 6, kMax, RunTile},
      {"CumSum", 11, kMax, RunCumSum},
      // Quantized ops (uint8/int8, per tensor or per axis; opset 13's semantics).
      {"QuantizeLinear", 10, kMax, RunQuantizeLinear},
      {"DequantizeLinear", 10, kMax, RunDequantizeLinear},
      {"DynamicQuantizeLinear", 11, kMax, RunDynamicQuantizeLinear},
      {"MatMulInteger", 10, kMax, RunMatMulInteger},
      {"QLinearMatMul", 10, kMax, RunQLinearMatMul},
      {"ConvInteger", 10, kMax, RunConvInteger},
      {"QLinearConv", 10, kMax, RunQLinearConv},
      // Recurrence (layout 0, default activations).
      // Its branches run as graphs with their own float16 handling.
      {"If", 1, kMax, RunIf, /*accepts_wide_floats=*/true},
      {"LSTM", 7, kMax, RunLSTM},
      {"GRU", 7, kMax, RunGRU},
      // Values and conversions (integer shape arithmetic lives here).
      {"Constant", 1, kMax, RunConstant},
      {"ConstantOfShape", 9, kMax, RunConstantOfShape},
      {"Range", 11, kMax, RunRange},
      {"Shape", 1, kMax, RunShape, /*accepts_wide_floats=*/true},
      {"Size", 1, kMax, RunSize, /*accepts_wide_floats=*/true},
      {"Cast", 6, kMax, RunCast, /*accepts_wide_floats=*/true},
      {"CastLike", 15, kMax, RunCastLike, /*accepts_wide_floats=*/true},
  };
  return kernels;
}

const std::vector<OpKernelInfo>& InternalKernels() {
  static const std::vector<OpKernelInfo> kernels = {
      {"WinogradInputTransform", 1, kMaxCheckedOpset, RunWinogradInputTransform},
      {"WinogradOutputTransform", 1, kMaxCheckedOpset, RunWinogradOutputTransform},
      {"DepthwisePointwiseConv", 1, kMaxCheckedOpset, RunDepthwisePointwiseConv},
  };
  return kernels;
}

bool IsInternalOp(const std::string& op_type) {
  for (const OpKernelInfo& info : InternalKernels()) {
    if (op_type == info.op_type) return true;
  }
  return false;
}

const OpKernelInfo* FindKernel(const std::string& op_type, int64_t opset) {
  for (const OpKernelInfo& info : InternalKernels()) {
    if (op_type == info.op_type) return &info;
  }
  for (const OpKernelInfo& info : RegisteredKernels()) {
    if (op_type == info.op_type && opset >= info.since_opset && opset <= info.until_opset) {
      return &info;
    }
  }
  return nullptr;
}

std::string UnsupportedReason(const std::string& op_type, int64_t opset) {
  for (const OpKernelInfo& info : RegisteredKernels()) {
    if (op_type != info.op_type) continue;
    return op_type + " at opset " + std::to_string(opset) + " is not supported (the CPU reference implements opsets " +
           std::to_string(info.since_opset) + " to " + std::to_string(info.until_opset) + ")";
  }
  return "op " + op_type + " is not supported by the CPU reference";
}

bool IsSupportedOp(const std::string& op_type) {
  for (const OpKernelInfo& info : RegisteredKernels()) {
    if (op_type == info.op_type) return true;
  }
  return false;
}

std::vector<std::string> SupportedOps() {
  std::set<std::string> names;
  for (const OpKernelInfo& info : RegisteredKernels()) names.insert(info.op_type);
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace cpu_reference
}  // namespace glpool
