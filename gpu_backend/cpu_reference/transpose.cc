// Transpose and the two block rearrangements defined through it
// (DepthToSpace, SpaceToDepth): reshape, permute, reshape.
#include <numeric>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/layout_util.h"

namespace glpool {
namespace cpu_reference {
namespace {

// Permutes `in` viewed as `view` (same element count) by `perm`, then gives
// the result `final_shape`.
Value PermuteView(const Value& in, const Shape& view, const std::vector<int64_t>& perm,
                  const Shape& final_shape) {
  const std::vector<int64_t> strides = StridesOf(view);
  Shape out_shape(perm.size());
  std::vector<int64_t> in_strides(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    out_shape[i] = view[perm[i]];
    in_strides[i] = strides[perm[i]];
  }
  Value out = StridedCopy(in, out_shape, in_strides);
  out.shape = final_shape;
  return out;
}

}  // namespace

Status RunTranspose(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  std::vector<int64_t> perm(rank);
  std::iota(perm.rbegin(), perm.rend(), 0);  // default: reverse the dims
  perm = ctx.node.GetInts("perm", perm);
  std::vector<bool> seen(rank, false);
  if (static_cast<int64_t>(perm.size()) != rank) {
    return InvalidModelError("perm has " + std::to_string(perm.size()) + " entries for rank " +
                             std::to_string(rank));
  }
  for (int64_t& p : perm) {
    GLPOOL_ASSIGN_OR_RETURN(p, NormalizeAxis(p, rank));
    if (seen[p]) return InvalidModelError("perm repeats axis " + std::to_string(p));
    seen[p] = true;
  }
  Shape out_shape(rank);
  for (int64_t i = 0; i < rank; ++i) out_shape[i] = x->shape[perm[i]];
  outputs[0] = PermuteView(*x, x->shape, perm, out_shape);
  return Status::Ok();
}

Status RunDepthToSpace(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  const int64_t bs = ctx.node.GetInt("blocksize", 0);
  if (x->shape.size() != 4 || bs < 1 || x->shape[1] % (bs * bs) != 0) {
    return InvalidModelError("input " + ShapeToString(x->shape) + " is not 4-D with channels " +
                             "divisible by blocksize^2 (blocksize " + std::to_string(bs) + ")");
  }
  const int64_t n = x->shape[0], c = x->shape[1], h = x->shape[2], w = x->shape[3];
  const Shape final_shape = {n, c / (bs * bs), h * bs, w * bs};
  if (ctx.node.GetString("mode", "DCR") == "CRD") {
    outputs[0] = PermuteView(*x, {n, c / (bs * bs), bs, bs, h, w}, {0, 1, 4, 2, 5, 3}, final_shape);
  } else {
    outputs[0] = PermuteView(*x, {n, bs, bs, c / (bs * bs), h, w}, {0, 3, 4, 1, 5, 2}, final_shape);
  }
  return Status::Ok();
}

Status RunSpaceToDepth(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  const int64_t bs = ctx.node.GetInt("blocksize", 0);
  if (x->shape.size() != 4 || bs < 1 || x->shape[2] % bs != 0 || x->shape[3] % bs != 0) {
    return InvalidModelError("input " + ShapeToString(x->shape) +
                             " is not 4-D with height and width divisible by blocksize " +
                             std::to_string(bs));
  }
  const int64_t n = x->shape[0], c = x->shape[1], h = x->shape[2], w = x->shape[3];
  outputs[0] = PermuteView(*x, {n, c, h / bs, bs, w / bs, bs}, {0, 3, 5, 1, 2, 4},
                           {n, c * bs * bs, h / bs, w / bs});
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
