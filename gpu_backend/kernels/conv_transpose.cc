// ConvTranspose with constant weights (shaders/conv_transpose.comp).
// Weights given at run time go to conv_dynamic, 3-D and higher windows to
// conv_nd.
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {

StatusOr<KernelPlan> BuildConvTranspose(const Graph& graph, const Node& node, const KernelLimits& limits) {
  GLPOOL_ASSIGN_OR_RETURN(const ConvOperands operands, ReadConvOperands(graph, node));
  if (operands.x->shape.size() > 4) return BuildConvNd(graph, node, limits);
  if (!operands.constant_weights()) return BuildConvDynamic(graph, node, limits);
  const Tensor* x = operands.x;
  const Tensor* w = operands.w;
  const Tensor* b = operands.b;
  const Tensor* y = operands.y;
  GLPOOL_ASSIGN_OR_RETURN(Window2D window, TransposedConvWindow(node, x->shape, w->shape, y->shape));
  // W is [C_in, C_out / group, kH, kW].
  GLPOOL_ASSIGN_OR_RETURN(const ConvChannels channels, ReadConvChannels(node, operands));

  const int64_t in_channels = x->shape[1];
  const int64_t group = channels.group;
  const int64_t out_per_group = channels.out_per_group, out_channels = channels.out_channels;
  const int64_t in_per_group = channels.in_per_group;
  const int64_t out_slices = (out_channels + 3) / 4;
  const int64_t block = group > 1 ? 1 : OutputSlicesPerInvocation(out_slices);

  KernelPlan plan;
  plan.shader = "conv_transpose";
  plan.inputs = {x->name};
  plan.outputs = {y->name};
  plan.defines.emplace_back("OUT_SLICES", std::to_string(block));
  plan.defines.emplace_back("IN_SLICES", std::to_string(MaxInputSlices(out_channels, in_per_group, out_per_group)));
  plan.defines.emplace_back("IC_PER_GROUP", std::to_string(in_per_group));
  plan.defines.emplace_back("OC_PER_GROUP", std::to_string(out_per_group));
  plan.defines.emplace_back("GROUPED", group > 1 ? "1" : "0");
  AddWindowDefines(window, plan);

  const std::vector<float> w_values = w->data.ToFloats();
  const std::array<int64_t, 2> kernel = window.kernel;
  auto weight = [&](int64_t oc, int64_t ic_in_group, int64_t ky, int64_t kx) {
    const int64_t g = oc / out_per_group;
    const int64_t ic = g * in_per_group + ic_in_group;
    return w_values[static_cast<size_t>(((ic * out_per_group + oc % out_per_group) * kernel[0] + ky) * kernel[1] + kx)];
  };
  plan.weights.push_back({"weights", PackGroupedWeights(out_channels, in_channels, in_per_group, out_per_group,
                                                        kernel, block, weight)});
  plan.weights.push_back({"bias", PackBias(b ? b->data.ToFloats() : std::vector<float>{}, out_channels, block)});
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));

  const Phwc4Layout out = LayoutOf(y->shape);
  const uint32_t slice_blocks = DivideRoundUp(out_slices, static_cast<uint32_t>(block));
  if (window.dilation[0] != 1 || window.dilation[1] != 1) {
    plan.local_size = LocalSize2D(out.w, out.rows(), slice_blocks, limits);
    plan.groups = {DivideRoundUp(out.w, plan.local_size[0]), DivideRoundUp(out.rows(), plan.local_size[1]),
                   slice_blocks};
    return plan;
  }
  // Phases (conv_transpose.comp): per phase along x, the outputs q = 0 ..
  // per_phase - 1 in blocks of `pixels`, the phases side by side along x.
  const int64_t stride_x = window.stride[1];
  const int64_t per_phase = (out.w + window.pad_begin[1] + stride_x - 1) / stride_x;
  const int64_t pixels = PixelsFillingLaneBatches(per_phase, OutputPixelsPerInvocation(per_phase));
  const int64_t blocks = (per_phase + pixels - 1) / pixels;
  plan.defines.emplace_back("PHASES", "1");
  plan.defines.emplace_back("PIXELS", std::to_string(pixels));
  plan.defines.emplace_back("Q_BLOCKS", std::to_string(blocks));
  plan.defines.emplace_back("FOR_PIXELS(F)", IndexList(pixels));
  plan.defines.emplace_back("FOR_SLICES(F)", IndexList(block));
  const int64_t columns = blocks * stride_x;
  plan.local_size = LocalSize2D(columns, out.rows(), slice_blocks, limits);
  plan.groups = {DivideRoundUp(static_cast<uint64_t>(columns), plan.local_size[0]),
                 DivideRoundUp(out.rows(), plan.local_size[1]), slice_blocks};
  return plan;
}

}  // namespace glpool
