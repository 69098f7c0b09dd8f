// Expand (broadcast to a shape) and Tile (repeat along each axis).
#include "gpu_backend/cpu_reference/broadcast.h"
#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/layout_util.h"

namespace glpool {
namespace cpu_reference {

Status RunExpand(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> target, ctx.IntsInput(1));
  // Expand broadcasts both ways: a target dim of 1 keeps the input's dim.
  GLPOOL_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(x->shape, target));
  outputs[0] = StridedCopy(*x, shape, BroadcastStrides(x->shape, shape));
  return Status::Ok();
}

Status RunTile(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> repeats, ctx.IntsInput(1));
  const size_t rank = x->shape.size();
  if (repeats.size() != rank) {
    return InvalidModelError("repeats has " + std::to_string(repeats.size()) +
                             " entries for rank " + std::to_string(rank));
  }
  Shape shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (repeats[d] < 0) return InvalidModelError("repeats must not be negative");
    shape[d] = x->shape[d] * repeats[d];
  }
  const std::vector<int64_t> in_strides = StridesOf(x->shape), out_strides = StridesOf(shape);
  Value out = EmptyLike(*x, shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      offset += ((i / out_strides[d]) % shape[d] % x->shape[d]) * in_strides[d];
    }
    CopyElements(*x, offset, out, i, 1);
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
