// Ops that only relabel the shape (Reshape, Flatten, Squeeze, Unsqueeze) and
// Identity. They copy the data: aliasing is the GPU backend's business, not
// the oracle's.
#include <algorithm>
#include <set>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

Value Relabeled(const Value& x, Shape shape) {
  Value out = x;
  out.shape = std::move(shape);
  return out;
}

// Axes from the attribute (before `input_since`) or from input 1.
StatusOr<std::vector<int64_t>> AxesOf(const KernelContext& ctx, int64_t input_since) {
  if (ctx.opset < input_since) return ctx.node.GetInts("axes");
  if (!ctx.has_input(1)) return std::vector<int64_t>{};
  return ctx.IntsInput(1);
}

}  // namespace

Status RunReshape(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  std::vector<int64_t> target;
  if (ctx.opset < 5) {
    target = ctx.node.GetInts("shape");
  } else {
    GLPOOL_ASSIGN_OR_RETURN(target, ctx.IntsInput(1));
  }
  const bool allow_zero = ctx.node.GetInt("allowzero", 0) != 0;
  Shape shape(target.size());
  int64_t infer_at = -1, known = 1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1) {
      if (infer_at >= 0) return InvalidModelError("shape has more than one -1");
      infer_at = static_cast<int64_t>(i);
      continue;
    }
    if (target[i] == 0 && !allow_zero) {
      if (i >= x->shape.size()) return InvalidModelError("shape copies a dim the input lacks");
      shape[i] = x->shape[i];
    } else if (target[i] < 0) {
      return InvalidModelError("shape has negative dim " + std::to_string(target[i]));
    } else {
      shape[i] = target[i];
    }
    known *= shape[i];
  }
  if (infer_at >= 0) {
    if (known == 0 || x->size() % known != 0) {
      return InvalidModelError("cannot infer -1 reshaping " + ShapeToString(x->shape));
    }
    shape[infer_at] = x->size() / known;
  }
  if (ElementCount(shape) != x->size()) {
    return InvalidModelError("cannot reshape " + ShapeToString(x->shape) + " to " +
                             ShapeToString(shape));
  }
  outputs[0] = Relabeled(*x, shape);
  return Status::Ok();
}

Status RunFlatten(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  int64_t axis = ctx.node.GetInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) return InvalidModelError("axis is out of range for rank " + std::to_string(rank));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < axis ? outer : inner) *= x->shape[d];
  outputs[0] = Relabeled(*x, {outer, inner});
  return Status::Ok();
}

Status RunSqueeze(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesOf(ctx, 13));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  std::set<int64_t> drop;
  for (int64_t a : axes) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(a, rank));
    if (x->shape[axis] != 1) {
      return InvalidModelError("cannot squeeze axis " + std::to_string(a) + " of " +
                               ShapeToString(x->shape));
    }
    drop.insert(axis);
  }
  Shape shape;
  for (int64_t d = 0; d < rank; ++d) {
    const bool squeezed = axes.empty() ? x->shape[d] == 1 : drop.count(d) != 0;
    if (!squeezed) shape.push_back(x->shape[d]);
  }
  outputs[0] = Relabeled(*x, shape);
  return Status::Ok();
}

Status RunUnsqueeze(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesOf(ctx, 13));
  const int64_t out_rank = static_cast<int64_t>(x->shape.size() + axes.size());
  std::set<int64_t> inserted;
  for (int64_t a : axes) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(a, out_rank));
    if (!inserted.insert(axis).second) return InvalidModelError("axes repeat " + std::to_string(a));
  }
  Shape shape;
  size_t next = 0;
  for (int64_t d = 0; d < out_rank; ++d) {
    shape.push_back(inserted.count(d) ? 1 : x->shape[next++]);
  }
  outputs[0] = Relabeled(*x, shape);
  return Status::Ok();
}

Status RunIdentity(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  outputs[0] = *x;
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
