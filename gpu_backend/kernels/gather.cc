// Gather and GatherElements (shaders/gather.comp). The indices are an
// ordinary input: a runtime tensor, or a constant the executor uploads like
// any other. Constant indices are range-checked here; runtime ones can only
// be clamped by the shader.
#include <string>
#include <vector>

#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

// Index values reach the shader as floats, which hold whole numbers exactly
// only up to 2^24.
constexpr int64_t kMaxExactIndex = int64_t(1) << 24;

// InvalidModel unless every value of a constant indices tensor lies in
// [-dim, dim), as ONNX requires.
Status CheckConstantIndices(const Tensor& indices, int64_t dim) {
  if (!indices.is_constant) return Status::Ok();
  for (int64_t index : indices.data.ToInt64s()) {
    if (index < -dim || index >= dim) {
      return InvalidModelError("indices '" + indices.name + "' hold " + std::to_string(index) +
                               ", outside an axis of " + std::to_string(dim));
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<KernelPlan> BuildGather(const Graph& graph, const Node& node, const KernelLimits&) {
  const bool elements = node.op_type == "GatherElements";
  if (node.inputs.size() != 2 || node.outputs.size() != 1) {
    return InvalidModelError("needs data, indices and one output");
  }
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* data, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*data));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* indices, RequireTensor(graph, node.inputs[1]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*indices));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  for (const Tensor* t : {data, indices, out}) GLPOOL_RETURN_IF_ERROR(CheckIndexable(t->shape));
  const size_t rank = data->shape.size();
  if (rank == 0) return InvalidModelError("data '" + data->name + "' is a scalar; it has no axis to gather along");
  GLPOOL_ASSIGN_OR_RETURN(const int64_t axis_value, NormalizeAxis(node.GetInt("axis", 0), rank));
  const size_t axis = static_cast<size_t>(axis_value);
  const int64_t dim = data->shape[axis];
  if (dim > kMaxExactIndex) return UnsupportedError("axis of " + std::to_string(dim) + " elements: indices above 2^24");
  if (ElementCount(out->shape) == 0) return UnsupportedError("output '" + out->name + "' is empty");
  if (dim == 0) {
    return InvalidModelError("gathers from the empty axis " + std::to_string(axis) + " of '" + data->name + "'");
  }
  GLPOOL_RETURN_IF_ERROR(CheckConstantIndices(*indices, dim));

  KernelPlan plan;
  plan.shader = "gather";
  plan.inputs = {data->name, indices->name};
  plan.outputs = {out->name};
  plan.defines = {{"ELEMENTS", elements ? "1" : "0"}, {"DIM", std::to_string(dim)}};
  if (elements) {
    // The output takes the indices' shape; every other dim indexes data
    // directly, so it must not run past data's.
    if (indices->shape.size() != rank) {
      return InvalidModelError("indices " + ShapeToString(indices->shape) + " and data " +
                               ShapeToString(data->shape) + " differ in rank");
    }
    if (rank > kMaxMappedRank) return UnsupportedError("rank above " + std::to_string(kMaxMappedRank));
    if (out->shape != indices->shape) {
      return InvalidModelError("output shape " + ShapeToString(out->shape) + " differs from the indices' " +
                               ShapeToString(indices->shape));
    }
    for (size_t d = 0; d < rank; ++d) {
      if (d != axis && indices->shape[d] > data->shape[d]) {
        return InvalidModelError("indices " + ShapeToString(indices->shape) + " exceed data " +
                                 ShapeToString(data->shape) + " in dim " + std::to_string(d));
      }
    }
    const std::vector<int64_t> strides = RowMajorStrides(data->shape);
    // Padded at the front to 8 dims (the shader unravels from the last).
    const size_t pad = kMaxMappedRank - rank;
    std::vector<int64_t> index_shape(kMaxMappedRank, 1), data_strides(kMaxMappedRank, 0);
    for (size_t d = 0; d < rank; ++d) {
      index_shape[pad + d] = indices->shape[d];
      data_strides[pad + d] = d == axis ? 0 : strides[d];
    }
    plan.defines.emplace_back("INDEX_SHAPE", GlslIntArray(index_shape));
    plan.defines.emplace_back("DATA_STRIDES", GlslIntArray(data_strides));
    plan.defines.emplace_back("AXIS_STRIDE", std::to_string(strides[axis]));
  } else {
    Shape expected(data->shape.begin(), data->shape.begin() + axis_value);
    expected.insert(expected.end(), indices->shape.begin(), indices->shape.end());
    expected.insert(expected.end(), data->shape.begin() + axis_value + 1, data->shape.end());
    if (out->shape != expected) {
      return InvalidModelError("output shape " + ShapeToString(out->shape) + " should be " +
                               ShapeToString(expected));
    }
    // Constant channels of an image batch (a channel shuffle composed with a
    // Slice, passes.h FoldChannelTransposesIntoSlices): each output texel
    // reads a table rather than working an index out per element.
    if (indices->is_constant && rank == 4 && axis == 1 && indices->shape.size() == 1) {
      std::vector<int64_t> channels = indices->data.ToInt64s();
      for (int64_t& c : channels) c = c < 0 ? c + dim : c;
      if (std::optional<KernelPlan> table = PlanChannelTable(graph, node, *data, {out}, {channels})) {
        return *table;
      }
    }
    int64_t inner = 1;
    for (size_t d = axis + 1; d < rank; ++d) inner *= data->shape[d];
    plan.defines.emplace_back("COUNT", std::to_string(ElementCount(indices->shape)));
    plan.defines.emplace_back("INNER", std::to_string(inner));
  }
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
