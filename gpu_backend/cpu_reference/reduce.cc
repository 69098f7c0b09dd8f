// Reductions over a set of axes (ReduceMean, ReduceSum, ReduceMax, ...) and
// ArgMax/ArgMin. Axes come from the attribute, or from input 1 for
// ReduceSum from opset 13 and the other reductions from 18; no axes means
// all of them unless noop_with_empty_axes. Sums accumulate in double.
// ReduceMax/ReduceMin also take integer and bool tensors (bool from opset
// 20), computed exactly in int64.
#include <cmath>
#include <limits>
#include <set>

#include "gpu_backend/cpu_reference/broadcast.h"
#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

enum class Reduction { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kSumSquare, kLogSum, kLogSumExp };

double Initial(Reduction r) {
  switch (r) {
    case Reduction::kMax: return -std::numeric_limits<double>::infinity();
    case Reduction::kMin: return std::numeric_limits<double>::infinity();
    case Reduction::kProd: return 1.0;
    default: return 0.0;
  }
}

double Accumulate(Reduction r, double acc, double v) {
  switch (r) {
    case Reduction::kMax: return std::isnan(v) || v > acc ? v : acc;
    case Reduction::kMin: return std::isnan(v) || v < acc ? v : acc;
    case Reduction::kProd: return acc * v;
    case Reduction::kL1: return acc + std::fabs(v);
    case Reduction::kL2:
    case Reduction::kSumSquare: return acc + v * v;
    case Reduction::kLogSumExp: return acc + std::exp(v);
    default: return acc + v;
  }
}

double Finish(Reduction r, double acc, int64_t count) {
  switch (r) {
    case Reduction::kMean: return acc / static_cast<double>(count);
    case Reduction::kL2: return std::sqrt(acc);
    case Reduction::kLogSum:
    case Reduction::kLogSumExp: return std::log(acc);
    default: return acc;
  }
}

// The reduced axes (sorted, normalized); empty means "reduce nothing".
StatusOr<std::set<int64_t>> ReducedAxes(const KernelContext& ctx, int64_t rank,
                                        bool axes_from_input) {
  std::vector<int64_t> axes;
  if (axes_from_input) {
    if (ctx.has_input(1)) {
      GLPOOL_ASSIGN_OR_RETURN(axes, ctx.IntsInput(1));
    }
  } else {
    axes = ctx.node.GetInts("axes");
  }
  std::set<int64_t> result;
  if (axes.empty()) {
    if (axes_from_input && ctx.node.GetInt("noop_with_empty_axes", 0) != 0) return result;
    for (int64_t d = 0; d < rank; ++d) result.insert(d);
    return result;
  }
  for (int64_t a : axes) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(a, rank));
    result.insert(axis);
  }
  return result;
}

// Max or min of an integer or bool tensor over `axes` (non-empty).
Status ReduceIntegers(const Value& x, const std::set<int64_t>& axes, bool keep_dims, bool want_max,
                      std::vector<Value>& outputs) {
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  Shape kept = x.shape, out_shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (axes.count(d)) kept[d] = 1;
    if (!axes.count(d) || keep_dims) out_shape.push_back(kept[d]);
  }
  if (ElementCount(kept) != 0 && x.size() == 0) {
    return InvalidModelError("reducing an empty axis of an integer tensor has no identity");
  }
  std::vector<int64_t> out(static_cast<size_t>(ElementCount(kept)));
  std::vector<bool> seen(out.size(), false);
  const std::array<std::vector<int64_t>, 1> strides = {BroadcastStrides(kept, x.shape)};
  ForEachBroadcast<1>(x.shape, strides, [&](int64_t i, const std::array<int64_t, 1>& o) {
    const int64_t v = x.ints[static_cast<size_t>(i)];
    int64_t& acc = out[static_cast<size_t>(o[0])];
    if (!seen[static_cast<size_t>(o[0])] || (want_max ? v > acc : v < acc)) acc = v;
    seen[static_cast<size_t>(o[0])] = true;
  });
  outputs[0] = MakeIntValue(x.dtype, out_shape, std::move(out));
  return Status::Ok();
}

Status Reduce(const KernelContext& ctx, std::vector<Value>& outputs, Reduction kind,
              bool axes_from_input) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* input, ctx.Input(0));
  if ((kind == Reduction::kMax || kind == Reduction::kMin) && IsIntegerOrBool(input->dtype)) {
    const int64_t rank = static_cast<int64_t>(input->shape.size());
    GLPOOL_ASSIGN_OR_RETURN(std::set<int64_t> axes, ReducedAxes(ctx, rank, axes_from_input));
    if (axes.empty()) {
      outputs[0] = *input;
      return Status::Ok();
    }
    return ReduceIntegers(*input, axes, ctx.node.GetInt("keepdims", 1) != 0, kind == Reduction::kMax, outputs);
  }
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  GLPOOL_ASSIGN_OR_RETURN(std::set<int64_t> axes, ReducedAxes(ctx, rank, axes_from_input));
  if (axes.empty()) {
    outputs[0] = *x;
    return Status::Ok();
  }
  const bool keep_dims = ctx.node.GetInt("keepdims", 1) != 0;
  Shape kept = x->shape, out_shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (axes.count(d)) kept[d] = 1;
    if (!axes.count(d) || keep_dims) out_shape.push_back(kept[d]);
  }
  const int64_t out_count = ElementCount(kept);
  const int64_t count = out_count ? x->size() / out_count : 0;
  // Walk the input; each element lands in the output cell its kept dims name.
  std::vector<double> acc(out_count, Initial(kind));
  const std::array<std::vector<int64_t>, 1> strides = {BroadcastStrides(kept, x->shape)};
  ForEachBroadcast<1>(x->shape, strides, [&](int64_t i, const std::array<int64_t, 1>& o) {
    acc[o[0]] = Accumulate(kind, acc[o[0]], x->floats[i]);
  });
  std::vector<float> out(out_count);
  for (int64_t i = 0; i < out_count; ++i) out[i] = static_cast<float>(Finish(kind, acc[i], count));
  outputs[0] = MakeFloatValue(out_shape, std::move(out));
  return Status::Ok();
}

Status ArgExtreme(const KernelContext& ctx, std::vector<Value>& outputs, bool want_max) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.node.GetInt("axis", 0), rank));
  const bool keep_dims = ctx.node.GetInt("keepdims", 1) != 0;
  const bool last = ctx.node.GetInt("select_last_index", 0) != 0;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < axis) outer *= x->shape[d];
    if (d > axis) inner *= x->shape[d];
  }
  const int64_t dim = x->shape[axis];
  Shape out_shape = x->shape;
  if (keep_dims) {
    out_shape[axis] = 1;
  } else {
    out_shape.erase(out_shape.begin() + axis);
  }
  std::vector<int64_t> out(outer * inner);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t best = 0;
      for (int64_t k = 1; k < dim; ++k) {
        const float v = x->floats[(o * dim + k) * inner + i];
        const float b = x->floats[(o * dim + best) * inner + i];
        const bool better = want_max ? (v > b || (last && v == b)) : (v < b || (last && v == b));
        if (better) best = k;
      }
      out[o * inner + i] = best;
    }
  }
  outputs[0] = MakeIntValue(DataType::kInt64, out_shape, std::move(out));
  return Status::Ok();
}

}  // namespace

Status RunReduceSum(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kSum, /*axes_from_input=*/ctx.opset >= 13);
}
Status RunReduceMean(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kMean, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunReduceMax(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kMax, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunReduceMin(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kMin, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunReduceProd(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kProd, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunReduceL1(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kL1, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunReduceL2(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kL2, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunReduceSumSquare(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kSumSquare, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunReduceLogSum(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kLogSum, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunReduceLogSumExp(const KernelContext& ctx, std::vector<Value>& outputs) {
  return Reduce(ctx, outputs, Reduction::kLogSumExp, /*axes_from_input=*/ctx.opset >= 18);
}
Status RunArgMax(const KernelContext& ctx, std::vector<Value>& outputs) {
  return ArgExtreme(ctx, outputs, /*want_max=*/true);
}
Status RunArgMin(const KernelContext& ctx, std::vector<Value>& outputs) {
  return ArgExtreme(ctx, outputs, /*want_max=*/false);
}

}  // namespace cpu_reference
}  // namespace glpool
