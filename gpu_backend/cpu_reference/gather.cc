// Gather (take along an axis) and GatherElements (index per element).
#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/layout_util.h"

namespace glpool {
namespace cpu_reference {
namespace {

StatusOr<int64_t> CheckedIndex(int64_t index, int64_t dim) {
  if (index < -dim || index >= dim) {
    return InvalidArgumentError("index " + std::to_string(index) + " is out of range for a dim of " +
                                std::to_string(dim));
  }
  return index < 0 ? index + dim : index;
}

}  // namespace

Status RunGather(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* data, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* indices, ctx.Input(1));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> index_values, ctx.IntsInput(1));
  const int64_t rank = static_cast<int64_t>(data->shape.size());
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.node.GetInt("axis", 0), rank));
  Shape out_shape(data->shape.begin(), data->shape.begin() + axis);
  out_shape.insert(out_shape.end(), indices->shape.begin(), indices->shape.end());
  out_shape.insert(out_shape.end(), data->shape.begin() + axis + 1, data->shape.end());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < axis) outer *= data->shape[d];
    if (d > axis) inner *= data->shape[d];
  }
  const int64_t dim = data->shape[axis], count = indices->size();
  Value out = EmptyLike(*data, out_shape);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < count; ++k) {
      GLPOOL_ASSIGN_OR_RETURN(int64_t index, CheckedIndex(index_values[k], dim));
      CopyElements(*data, (o * dim + index) * inner, out, (o * count + k) * inner, inner);
    }
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

Status RunGatherElements(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* data, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* indices, ctx.Input(1));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> index_values, ctx.IntsInput(1));
  const int64_t rank = static_cast<int64_t>(data->shape.size());
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.node.GetInt("axis", 0), rank));
  if (indices->shape.size() != data->shape.size()) {
    return InvalidModelError("indices " + ShapeToString(indices->shape) + " and data " +
                             ShapeToString(data->shape) + " differ in rank");
  }
  const std::vector<int64_t> data_strides = StridesOf(data->shape);
  const std::vector<int64_t> index_strides = StridesOf(indices->shape);
  Value out = EmptyLike(*data, indices->shape);
  for (int64_t i = 0; i < indices->size(); ++i) {
    int64_t offset = 0, rest = i;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t coord = rest / index_strides[d];
      rest %= index_strides[d];
      if (d == axis) {
        GLPOOL_ASSIGN_OR_RETURN(coord, CheckedIndex(index_values[i], data->shape[d]));
      }
      offset += coord * data_strides[d];
    }
    CopyElements(*data, offset, out, i, 1);
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
