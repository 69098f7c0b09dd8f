// Slice: starts/ends/axes as attributes before opset 10, as inputs (with
// steps) from 10. Out-of-range starts and ends clamp as numpy does.
#include <algorithm>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/layout_util.h"

namespace glpool {
namespace cpu_reference {

Status RunSlice(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  std::vector<int64_t> starts, ends, axes, steps;
  if (ctx.opset < 10) {
    starts = ctx.node.GetInts("starts");
    ends = ctx.node.GetInts("ends");
    axes = ctx.node.GetInts("axes");
  } else {
    GLPOOL_ASSIGN_OR_RETURN(starts, ctx.IntsInput(1));
    GLPOOL_ASSIGN_OR_RETURN(ends, ctx.IntsInput(2));
    if (ctx.has_input(3)) {
      GLPOOL_ASSIGN_OR_RETURN(axes, ctx.IntsInput(3));
    }
    if (ctx.has_input(4)) {
      GLPOOL_ASSIGN_OR_RETURN(steps, ctx.IntsInput(4));
    }
  }
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size()) {
    return InvalidModelError("starts, ends, axes and steps differ in length");
  }
  const std::vector<int64_t> in_strides = StridesOf(x->shape);
  Shape out_shape = x->shape;
  std::vector<int64_t> strides = in_strides;
  int64_t base = 0;
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < starts.size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(axes[i], rank));
    if (seen[axis]) return InvalidModelError("axis " + std::to_string(axis) + " is sliced twice");
    seen[axis] = true;
    const int64_t dim = x->shape[axis];
    if (steps[i] == 0) return InvalidModelError("step must not be 0");
    // Steps longer than the axis select the first element only, as a step
    // of the axis length does; shortening them keeps the sums below exact.
    const int64_t longest = std::max<int64_t>(dim, 1);
    const int64_t step = std::clamp<int64_t>(steps[i], -longest, longest);
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
    }
    const int64_t count =
        step > 0 ? (end - start + step - 1) / step : (start - end + (-step) - 1) / (-step);
    out_shape[axis] = std::max<int64_t>(0, count);
    if (out_shape[axis] > 0) base += start * in_strides[axis];
    strides[axis] = in_strides[axis] * step;
  }
  outputs[0] = StridedCopy(*x, out_shape, strides, base);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
