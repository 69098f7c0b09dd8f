// Winograd's input and output transforms (graph/winograd.h,
// shaders/winograd_input.comp and winograd_output.comp): one invocation
// per tile and slice. Only the GPU session's rewrite makes these nodes
// (passes/winograd.cc), with shapes it checked; these check them again.
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/graph/winograd.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {
namespace {

// Local size and groups over (tile columns, tile rows of every image, slices).
void TileDispatch(int64_t tile_columns, int64_t tile_rows, int64_t slices, const KernelLimits& limits,
                  KernelPlan& plan) {
  plan.local_size = LocalSize2D(tile_columns, tile_rows, slices, limits);
  plan.groups = {DivideRoundUp(static_cast<uint64_t>(tile_columns), plan.local_size[0]),
                 DivideRoundUp(static_cast<uint64_t>(tile_rows), plan.local_size[1]), static_cast<uint32_t>(slices)};
}

}  // namespace

StatusOr<KernelPlan> BuildWinogradInputTransform(const Graph& graph, const Node& node, const KernelLimits& limits) {
  if (node.inputs.size() != 1 || node.outputs.size() != 1) return InvalidModelError("needs X and one output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* x, RequireTensor(graph, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* v, RequireTensor(graph, node.outputs[0]));
  const std::vector<int64_t> pads = node.GetInts("pads"), tiles = node.GetInts("tiles");
  if (x->shape.size() != 4 || pads.size() != 2 || tiles.size() != 2 ||
      v->shape != Shape{x->shape[0], kWinogradElements * WinogradPaddedChannels(x->shape[1]), tiles[0], tiles[1]}) {
    return InvalidModelError("X " + ShapeToString(x->shape) + " and V " + ShapeToString(v->shape) +
                             " do not fit the tiles and pads");
  }
  KernelPlan plan;
  plan.shader = "winograd_input";
  plan.inputs = {x->name};
  plan.outputs = {v->name};
  plan.defines = {{"PAD_Y", std::to_string(pads[0])}, {"PAD_X", std::to_string(pads[1])}};
  TileDispatch(tiles[1], x->shape[0] * tiles[0], LayoutOf(x->shape).slices(), limits, plan);
  return plan;
}

StatusOr<KernelPlan> BuildWinogradOutputTransform(const Graph& graph, const Node& node, const KernelLimits& limits) {
  if (node.inputs.size() < 2 || node.inputs.size() > 3 || node.outputs.size() != 1) {
    return InvalidModelError("needs M, a bias (or none), an optional residual and one output");
  }
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* m, RequireTensor(graph, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* y, RequireTensor(graph, node.outputs[0]));
  if (m->shape.size() != 4 || y->shape.size() != 4 ||
      m->shape != Shape{y->shape[0], kWinogradElements * WinogradPaddedChannels(y->shape[1]),
                        (y->shape[2] + kWinogradOutputTile - 1) / kWinogradOutputTile,
                        (y->shape[3] + kWinogradOutputTile - 1) / kWinogradOutputTile}) {
    return InvalidModelError("M " + ShapeToString(m->shape) + " does not hold the tiles of Y " +
                             ShapeToString(y->shape));
  }
  KernelPlan plan;
  plan.shader = "winograd_output";
  plan.inputs = {m->name};
  plan.outputs = {y->name};
  std::vector<float> bias;
  if (!node.inputs[1].empty()) {
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* b, RequireTensor(graph, node.inputs[1]));
    if (!b->is_constant || b->shape != Shape{y->shape[1]}) return InvalidModelError("the bias must be constant");
    bias = b->data.ToFloats();
  }
  plan.weights.push_back({"bias", PackBias(bias, y->shape[1], 1)});
  if (node.inputs.size() == 3 && !node.inputs[2].empty()) {
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* residual, RequireTensor(graph, node.inputs[2]));
    if (residual->shape != y->shape) return InvalidModelError("the residual must have Y's shape");
    plan.inputs.push_back(residual->name);
    plan.defines.emplace_back("RESIDUAL", "1");
  }
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  TileDispatch(m->shape[3], m->shape[0] * m->shape[2], LayoutOf(y->shape).slices(), limits, plan);
  return plan;
}

}  // namespace glpool
