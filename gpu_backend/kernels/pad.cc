// Pad (shaders/pad.comp): constant, reflect, edge and wrap (opset 19)
// modes on tensors of rank 1 to 4, pads from attributes (opset < 11) or
// constant inputs, for the dims the axes input names (opset 18).
#include <string>
#include <vector>

#include "gpu_backend/import/node_view.h"
#include "gpu_backend/import/shape_ops.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {

StatusOr<KernelPlan> BuildPad(const Graph& graph, const Node& node, const KernelLimits&) {
  if (node.inputs.empty() || node.outputs.size() != 1) return InvalidModelError("needs an input and one output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  const size_t rank = in->shape.size();
  if (rank < 1 || rank > 4)
    return UnsupportedError("only ranks 1 to 4 pad on the GPU, input is " + ShapeToString(in->shape));
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, ReadPads(NodeView(graph, node)));
  float value = 0.0f;
  if (graph.opset < 11) {
    value = node.GetFloat("value", 0.0f);
  } else {
    GLPOOL_ASSIGN_OR_RETURN(std::vector<float> constant, ConstantFloats(graph, node, 2, {0.0f}));
    if (constant.size() != 1) return InvalidModelError("constant_value must hold one value");
    value = constant[0];
  }
  if (pads.size() != 2 * rank) return InvalidModelError("pads needs 2 x rank values");
  const std::string mode = node.GetString("mode", "constant");
  const int mode_code = mode == "constant" ? 0
                        : mode == "reflect" ? 1
                        : mode == "edge"    ? 2
                        : mode == "wrap" && graph.opset >= 19 ? 3
                                                              : -1;
  if (mode_code < 0) return UnsupportedError("Pad mode '" + mode + "' is not supported");
  int64_t begin[4] = {0, 0, 0, 0};
  bool channel_padded = false;
  for (size_t d = 0; d < rank; ++d) {
    if (in->shape[d] + pads[d] + pads[d + rank] != out->shape[d]) {
      return InvalidModelError("pads do not give the output shape " + ShapeToString(out->shape));
    }
    if (in->shape[d] == 0 && out->shape[d] > 0 && mode_code != 0) return InvalidModelError("padding an empty axis");
    const int axis = Phwc4AxisOf(d, rank);
    begin[axis] = pads[d];
    if (axis == 1 && (pads[d] != 0 || pads[d + rank] != 0)) channel_padded = true;
  }
  KernelPlan plan;
  plan.shader = "pad";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  plan.defines = {{"MODE", std::to_string(mode_code)},
                  {"PAD_BEGIN", "ivec4(" + std::to_string(begin[0]) + ", " + std::to_string(begin[1]) + ", " +
                                    std::to_string(begin[2]) + ", " + std::to_string(begin[3]) + ")"},
                  {"VALUE", GlslFloat(value)},
                  {"CHANNEL_PADDED", channel_padded ? "1" : "0"}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
