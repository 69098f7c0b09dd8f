// Every CPU reference kernel, grouped by the file that defines it. The
// registry (registry.cc) is the one place that maps op names to these.
#pragma once

#include <vector>

#include "gpu_backend/cpu_reference/kernel.h"

namespace glpool {
namespace cpu_reference {

#define GLPOOL_CPU_KERNEL(name) Status Run##name(const KernelContext& ctx, std::vector<Value>& outputs)

// cumsum.cc
GLPOOL_CPU_KERNEL(CumSum);

// quantize.cc
GLPOOL_CPU_KERNEL(QuantizeLinear);
GLPOOL_CPU_KERNEL(DequantizeLinear);
GLPOOL_CPU_KERNEL(DynamicQuantizeLinear);
GLPOOL_CPU_KERNEL(MatMulInteger);
GLPOOL_CPU_KERNEL(QLinearMatMul);

// conv_integer.cc
GLPOOL_CPU_KERNEL(ConvInteger);
GLPOOL_CPU_KERNEL(QLinearConv);

// control_flow.cc
GLPOOL_CPU_KERNEL(If);

// recurrent.cc
GLPOOL_CPU_KERNEL(LSTM);
GLPOOL_CPU_KERNEL(GRU);

// activation.cc
GLPOOL_CPU_KERNEL(Relu);
GLPOOL_CPU_KERNEL(Clip);
GLPOOL_CPU_KERNEL(Sigmoid);
GLPOOL_CPU_KERNEL(Tanh);
GLPOOL_CPU_KERNEL(HardSigmoid);
GLPOOL_CPU_KERNEL(HardSwish);
GLPOOL_CPU_KERNEL(LeakyRelu);
GLPOOL_CPU_KERNEL(Elu);
GLPOOL_CPU_KERNEL(Selu);
GLPOOL_CPU_KERNEL(Celu);
GLPOOL_CPU_KERNEL(Softplus);
GLPOOL_CPU_KERNEL(Softsign);
GLPOOL_CPU_KERNEL(ThresholdedRelu);
GLPOOL_CPU_KERNEL(PRelu);

// newer_ops.cc
GLPOOL_CPU_KERNEL(Gelu);
GLPOOL_CPU_KERNEL(Mish);
GLPOOL_CPU_KERNEL(GroupNormalization);

// elementwise_binary.cc
GLPOOL_CPU_KERNEL(Add);
GLPOOL_CPU_KERNEL(Sub);
GLPOOL_CPU_KERNEL(Mul);
GLPOOL_CPU_KERNEL(Div);
GLPOOL_CPU_KERNEL(Mod);
GLPOOL_CPU_KERNEL(Pow);
GLPOOL_CPU_KERNEL(Max);
GLPOOL_CPU_KERNEL(Min);
GLPOOL_CPU_KERNEL(Sum);
GLPOOL_CPU_KERNEL(Mean);
GLPOOL_CPU_KERNEL(Equal);
GLPOOL_CPU_KERNEL(Greater);
GLPOOL_CPU_KERNEL(GreaterOrEqual);
GLPOOL_CPU_KERNEL(Less);
GLPOOL_CPU_KERNEL(LessOrEqual);
GLPOOL_CPU_KERNEL(And);
GLPOOL_CPU_KERNEL(Or);
GLPOOL_CPU_KERNEL(Xor);
GLPOOL_CPU_KERNEL(Where);

// elementwise_unary.cc
GLPOOL_CPU_KERNEL(Neg);
GLPOOL_CPU_KERNEL(Abs);
GLPOOL_CPU_KERNEL(Sign);
GLPOOL_CPU_KERNEL(Reciprocal);
GLPOOL_CPU_KERNEL(Sqrt);
GLPOOL_CPU_KERNEL(Exp);
GLPOOL_CPU_KERNEL(Log);
GLPOOL_CPU_KERNEL(Erf);
GLPOOL_CPU_KERNEL(Floor);
GLPOOL_CPU_KERNEL(Ceil);
GLPOOL_CPU_KERNEL(Round);
GLPOOL_CPU_KERNEL(Sin);
GLPOOL_CPU_KERNEL(Cos);
GLPOOL_CPU_KERNEL(Tan);
GLPOOL_CPU_KERNEL(Asin);
GLPOOL_CPU_KERNEL(Acos);
GLPOOL_CPU_KERNEL(Atan);
GLPOOL_CPU_KERNEL(Sinh);
GLPOOL_CPU_KERNEL(Cosh);
GLPOOL_CPU_KERNEL(Asinh);
GLPOOL_CPU_KERNEL(Acosh);
GLPOOL_CPU_KERNEL(Atanh);
GLPOOL_CPU_KERNEL(Not);

// conv.cc, conv_transpose.cc, matmul.cc
GLPOOL_CPU_KERNEL(Conv);
GLPOOL_CPU_KERNEL(ConvTranspose);
GLPOOL_CPU_KERNEL(Gemm);
GLPOOL_CPU_KERNEL(MatMul);

// winograd.cc: internal ops (registry.h InternalKernels)
GLPOOL_CPU_KERNEL(WinogradInputTransform);
GLPOOL_CPU_KERNEL(WinogradOutputTransform);

// depthwise_pointwise.cc (graph/depthwise_pointwise.h)
GLPOOL_CPU_KERNEL(DepthwisePointwiseConv);

// pool.cc
GLPOOL_CPU_KERNEL(MaxPool);
GLPOOL_CPU_KERNEL(AveragePool);
GLPOOL_CPU_KERNEL(GlobalAveragePool);
GLPOOL_CPU_KERNEL(GlobalMaxPool);


// softmax.cc
GLPOOL_CPU_KERNEL(Softmax);
GLPOOL_CPU_KERNEL(LogSoftmax);
GLPOOL_CPU_KERNEL(Hardmax);

// normalization.cc
GLPOOL_CPU_KERNEL(BatchNormalization);
GLPOOL_CPU_KERNEL(InstanceNormalization);
GLPOOL_CPU_KERNEL(LayerNormalization);

// reduce.cc
GLPOOL_CPU_KERNEL(ReduceSum);
GLPOOL_CPU_KERNEL(ReduceMean);
GLPOOL_CPU_KERNEL(ReduceMax);
GLPOOL_CPU_KERNEL(ReduceMin);
GLPOOL_CPU_KERNEL(ReduceProd);
GLPOOL_CPU_KERNEL(ReduceL1);
GLPOOL_CPU_KERNEL(ReduceL2);
GLPOOL_CPU_KERNEL(ReduceSumSquare);
GLPOOL_CPU_KERNEL(ReduceLogSum);
GLPOOL_CPU_KERNEL(ReduceLogSumExp);
GLPOOL_CPU_KERNEL(ArgMax);
GLPOOL_CPU_KERNEL(ArgMin);

// resize.cc, pad.cc
GLPOOL_CPU_KERNEL(Resize);
GLPOOL_CPU_KERNEL(Upsample);
GLPOOL_CPU_KERNEL(Pad);

// transpose.cc, reshape.cc, dropout.cc, concat_split.cc, slice.cc, gather.cc, expand_tile.cc
GLPOOL_CPU_KERNEL(Transpose);
GLPOOL_CPU_KERNEL(DepthToSpace);
GLPOOL_CPU_KERNEL(SpaceToDepth);
GLPOOL_CPU_KERNEL(Reshape);
GLPOOL_CPU_KERNEL(Flatten);
GLPOOL_CPU_KERNEL(Squeeze);
GLPOOL_CPU_KERNEL(Unsqueeze);
GLPOOL_CPU_KERNEL(Identity);
GLPOOL_CPU_KERNEL(Dropout);
GLPOOL_CPU_KERNEL(Concat);
GLPOOL_CPU_KERNEL(Split);
GLPOOL_CPU_KERNEL(Slice);
GLPOOL_CPU_KERNEL(Gather);
GLPOOL_CPU_KERNEL(GatherElements);
GLPOOL_CPU_KERNEL(Expand);
GLPOOL_CPU_KERNEL(Tile);

// constant.cc
GLPOOL_CPU_KERNEL(Constant);
GLPOOL_CPU_KERNEL(ConstantOfShape);
GLPOOL_CPU_KERNEL(Range);
GLPOOL_CPU_KERNEL(Shape);
GLPOOL_CPU_KERNEL(Size);
GLPOOL_CPU_KERNEL(Cast);
GLPOOL_CPU_KERNEL(CastLike);

#undef GLPOOL_CPU_KERNEL

}  // namespace cpu_reference
}  // namespace glpool
