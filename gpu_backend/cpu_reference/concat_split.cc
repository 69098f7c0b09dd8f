// Concat and Split along one axis: block copies of the contiguous runs that
// lie below the axis.
#include <numeric>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/layout_util.h"

namespace glpool {
namespace cpu_reference {
namespace {

// Product of shape[0, axis) and of shape(axis, rank).
void OuterInner(const Shape& shape, int64_t axis, int64_t* outer, int64_t* inner) {
  *outer = 1;
  *inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis) *outer *= shape[d];
    if (d > axis) *inner *= shape[d];
  }
}

}  // namespace

Status RunConcat(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* first, ctx.Input(0));
  const int64_t rank = static_cast<int64_t>(first->shape.size());
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.node.GetInt("axis", 1), rank));
  Shape out_shape = first->shape;
  out_shape[axis] = 0;
  for (size_t k = 0; k < ctx.input_count(); ++k) {
    GLPOOL_ASSIGN_OR_RETURN(const Value* in, ctx.Input(k));
    bool fits = in->dtype == first->dtype && in->shape.size() == first->shape.size();
    for (int64_t d = 0; fits && d < rank; ++d) fits = d == axis || in->shape[d] == first->shape[d];
    if (!fits) {
      return InvalidModelError(ctx.InputLabel(k) + " (" + DescribeValue(*in) +
                               ") does not concatenate with input 0 (" + DescribeValue(*first) +
                               ") on axis " + std::to_string(axis));
    }
    out_shape[axis] += in->shape[axis];
  }
  Value out = EmptyLike(*first, out_shape);
  int64_t outer, inner;
  OuterInner(out_shape, axis, &outer, &inner);
  const int64_t out_run = out_shape[axis] * inner;
  int64_t offset = 0;  // where this input's run starts inside an output run
  for (size_t k = 0; k < ctx.input_count(); ++k) {
    const Value& in = *ctx.inputs[k];
    const int64_t run = in.shape[axis] * inner;
    for (int64_t o = 0; o < outer; ++o) CopyElements(in, o * run, out, o * out_run + offset, run);
    offset += run;
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

Status RunSplit(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.node.GetInt("axis", 0), rank));
  std::vector<int64_t> split;
  if (ctx.opset < 13) {
    split = ctx.node.GetInts("split");
  } else if (ctx.has_input(1)) {
    GLPOOL_ASSIGN_OR_RETURN(split, ctx.IntsInput(1));
  }
  const int64_t parts = static_cast<int64_t>(outputs.size());
  const int64_t dim = x->shape[axis];
  if (ctx.opset >= 18 && ctx.node.HasAttribute("num_outputs")) {
    // Parts of ceil(dim / n); the last one takes what remains.
    const int64_t n = ctx.node.GetInt("num_outputs", 0);
    if (n != parts || ctx.has_input(1)) {
      return InvalidModelError("num_outputs " + std::to_string(n) + " needs " + std::to_string(n) +
                               " outputs (has " + std::to_string(parts) + ") and no split input");
    }
    const int64_t chunk = (dim + n - 1) / n;
    split.assign(n, chunk);
    split.back() = dim - chunk * (n - 1);
    if (split.back() < 0) return InvalidModelError("num_outputs " + std::to_string(n) + " overcuts dim " + std::to_string(dim));
  } else if (split.empty()) {
    if (dim % parts != 0) {
      return InvalidModelError("axis " + std::to_string(axis) + " of " + ShapeToString(x->shape) +
                               " does not split evenly into " + std::to_string(parts));
    }
    split.assign(parts, dim / parts);
  }
  if (static_cast<int64_t>(split.size()) != parts ||
      std::accumulate(split.begin(), split.end(), int64_t{0}) != dim) {
    return InvalidModelError("split sizes do not match " + std::to_string(parts) +
                             " outputs and dim " + std::to_string(dim));
  }
  int64_t outer, inner;
  OuterInner(x->shape, axis, &outer, &inner);
  int64_t offset = 0;
  for (int64_t p = 0; p < parts; ++p) {
    Shape shape = x->shape;
    shape[axis] = split[p];
    Value out = EmptyLike(*x, shape);
    const int64_t run = split[p] * inner;
    for (int64_t o = 0; o < outer; ++o) CopyElements(*x, o * dim * inner + offset, out, o * run, run);
    offset += run;
    outputs[p] = std::move(out);
  }
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
