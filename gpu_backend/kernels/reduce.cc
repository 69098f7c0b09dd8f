// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1,
// ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp over any set of
// axes, keepdims or not (shaders/reduce.comp). Axes come from the attribute,
// or from a constant input 1 (ReduceSum from opset 13, the others from 18).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {

StatusOr<KernelPlan> BuildReduce(const Graph& graph, const Node& node, const KernelLimits& limits) {
  static const std::map<std::string, int> kOps = {
      {"ReduceSum", 0}, {"ReduceMean", 1}, {"ReduceMax", 2},       {"ReduceMin", 3},    {"ReduceProd", 4},
      {"ReduceL1", 5},  {"ReduceL2", 6},   {"ReduceSumSquare", 7}, {"ReduceLogSum", 8}, {"ReduceLogSumExp", 9}};
  if (node.inputs.empty() || node.outputs.size() != 1) return InvalidModelError("needs an input and one output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  const size_t rank = in->shape.size();
  if (rank > kMaxMappedRank) return UnsupportedError("rank above " + std::to_string(kMaxMappedRank));
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(in->shape));
  const bool axes_from_input = graph.opset >= (node.op_type == "ReduceSum" ? 13 : 18);
  std::vector<int64_t> axes;
  if (axes_from_input) {
    GLPOOL_ASSIGN_OR_RETURN(axes, ConstantInts(graph, node, 1));
  } else {
    axes = node.GetInts("axes");
  }
  std::set<size_t> reduced;
  if (axes.empty() && !(axes_from_input && node.GetInt("noop_with_empty_axes", 0) != 0)) {
    for (size_t d = 0; d < rank; ++d) reduced.insert(d);
  }
  for (int64_t a : axes) {
    GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(a, rank));
    reduced.insert(static_cast<size_t>(axis));
  }
  const std::vector<int64_t> strides = RowMajorStrides(in->shape);
  // Padded at the front to 8 dims (the shader unravels from the last).
  const size_t pad = kMaxMappedRank - rank;
  std::vector<int64_t> keep_shape(kMaxMappedRank, 1), keep_strides(kMaxMappedRank, 0);
  std::vector<int64_t> red_shape(kMaxMappedRank, 1), red_strides(kMaxMappedRank, 0);
  int64_t count = 1;
  for (size_t d = 0; d < rank; ++d) {
    if (reduced.count(d)) {
      red_shape[pad + d] = in->shape[d];
      red_strides[pad + d] = strides[d];
      count *= in->shape[d];
    } else {
      keep_shape[pad + d] = in->shape[d];
      keep_strides[pad + d] = strides[d];
    }
  }
  if (ElementCount(out->shape) != ElementCount(in->shape) / (count ? count : 1)) {
    return InvalidModelError("output shape " + ShapeToString(out->shape) + " does not match the reduction");
  }
  if (count == 0) return UnsupportedError("reducing an empty axis");
  // The mean or max of each channel's plane (a global pool written as a
  // reduction: MnasNet's, ShuffleNet's heads) is the pool kernel's, whose
  // invocations read whole texels; [N, C] and [N, C, 1, 1] outputs share
  // one PHWC4 layout.
  const bool spatial = rank == 4 && reduced == std::set<size_t>{2, 3};
  if (spatial && (node.op_type == "ReduceMean" || node.op_type == "ReduceMax")) {
    GLPOOL_ASSIGN_OR_RETURN(KernelPlan plan, BuildGlobalPoolPlan(*in, *out, node.op_type == "ReduceMax", limits));
    GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
    return plan;
  }
  KernelPlan plan;
  plan.shader = "reduce";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  plan.defines = {{"OP", std::to_string(kOps.at(node.op_type))}, {"COUNT", std::to_string(count)},
                  {"KEEP_SHAPE", GlslIntArray(keep_shape)},      {"IN_STRIDES", GlslIntArray(keep_strides)},
                  {"RED_SHAPE", GlslIntArray(red_shape)},        {"RED_STRIDES", GlslIntArray(red_strides)}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
