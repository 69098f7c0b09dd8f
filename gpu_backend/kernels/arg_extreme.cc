// ArgMax and ArgMin along one axis, keepdims or not, ties to the first or
// (select_last_index) the last index (shaders/arg_extreme.comp).
#include <string>

#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

// Indices reach the output as floats, which hold whole numbers exactly only
// up to 2^24.
constexpr int64_t kMaxExactIndex = int64_t(1) << 24;

}  // namespace

StatusOr<KernelPlan> BuildArgExtreme(const Graph& graph, const Node& node, const KernelLimits&) {
  if (node.inputs.size() != 1 || node.outputs.size() != 1) return InvalidModelError("needs one input and one output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  const size_t rank = in->shape.size();
  if (rank == 0) return InvalidModelError("input '" + in->name + "' is a scalar; it has no axis to search");
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(in->shape));
  GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(node.GetInt("axis", 0), rank));
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < rank; ++d) inner *= in->shape[d];
  const int64_t dim = in->shape[static_cast<size_t>(axis)];
  if (ElementCount(out->shape) == 0) return UnsupportedError("output '" + out->name + "' is empty");
  if (dim == 0) return InvalidModelError("axis " + std::to_string(axis) + " of '" + in->name + "' is empty");
  if (dim > kMaxExactIndex) return UnsupportedError("axis of " + std::to_string(dim) + " elements: indices above 2^24");
  if (ElementCount(out->shape) * dim != ElementCount(in->shape)) {
    return InvalidModelError("output shape " + ShapeToString(out->shape) + " does not match input " +
                             ShapeToString(in->shape) + " reduced along axis " + std::to_string(axis));
  }
  KernelPlan plan;
  plan.shader = "arg_extreme";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  plan.defines = {{"WANT_MAX", node.op_type == "ArgMax" ? "1" : "0"},
                  {"SELECT_LAST", node.GetInt("select_last_index", 0) != 0 ? "1" : "0"},
                  {"DIM", std::to_string(dim)},
                  {"INNER", std::to_string(inner)}};
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
