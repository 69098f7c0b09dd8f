// Pad: constant, reflect, edge and wrap (opset 19) modes, any rank;
// negative pads crop. Pads come from the "paddings" (opset 1) or "pads"
// (2-10) attribute or from input 1 (11+), for the dims input 3 names (axes,
// 18+) or every dim; the constant from the "value" attribute or input 2.
#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/layout_util.h"

namespace glpool {
namespace cpu_reference {
namespace {

// numpy "reflect": mirror about the edge elements without repeating them.
int64_t Reflect(int64_t i, int64_t n) {
  if (n == 1) return 0;
  const int64_t period = 2 * (n - 1);
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - i;
}

// numpy "wrap": the axis repeats periodically.
int64_t Wrap(int64_t i, int64_t n) {
  i %= n;
  return i < 0 ? i + n : i;
}

// Pads for every dim: `given` holds begins then ends for `axes` (opset 18).
StatusOr<std::vector<int64_t>> PadsForEveryDim(const KernelContext& ctx, const std::vector<int64_t>& given,
                                               int64_t rank) {
  if (!(ctx.opset >= 18 && ctx.has_input(3))) return given;
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, ctx.IntsInput(3));
  if (given.size() != 2 * axes.size()) {
    return InvalidModelError("pads has " + std::to_string(given.size()) + " entries for " +
                             std::to_string(axes.size()) + " axes");
  }
  std::vector<int64_t> pads(2 * rank, 0);
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < axes.size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(axes[i], rank));
    if (seen[axis]) return InvalidModelError("axes repeat axis " + std::to_string(axis));
    seen[axis] = true;
    pads[axis] = given[i];
    pads[axis + rank] = given[i + axes.size()];
  }
  return pads;
}

}  // namespace

Status RunPad(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  const int64_t rank = static_cast<int64_t>(x->shape.size());
  std::vector<int64_t> pads;
  float constant = 0.0f;
  int64_t int_constant = 0;
  if (ctx.opset < 11) {
    pads = ctx.node.GetInts(ctx.opset < 2 ? "paddings" : "pads");
    constant = ctx.node.GetFloat("value", 0.0f);
  } else {
    GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> given, ctx.IntsInput(1));
    GLPOOL_ASSIGN_OR_RETURN(pads, PadsForEveryDim(ctx, given, rank));
    if (ctx.has_input(2)) {
      GLPOOL_ASSIGN_OR_RETURN(const Value* c, ctx.Input(2));
      if (c->size() != 1 || c->dtype != x->dtype) {
        return InvalidModelError(ctx.InputLabel(2) + " must be one " + DataTypeName(x->dtype) +
                                 " value");
      }
      if (c->is_floating()) {
        constant = c->floats[0];
      } else {
        int_constant = c->ints[0];
      }
    }
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank) {
    return InvalidModelError("pads has " + std::to_string(pads.size()) + " entries for rank " +
                             std::to_string(rank));
  }
  const std::string mode = ctx.node.GetString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge" && !(mode == "wrap" && ctx.opset >= 19)) {
    return UnsupportedError("Pad mode '" + mode + "' is not supported");
  }
  Shape shape(rank);
  for (int64_t d = 0; d < rank; ++d) {
    shape[d] = x->shape[d] + pads[d] + pads[d + rank];
    if (shape[d] < 0) return InvalidModelError("pads crop more than axis " + std::to_string(d) + " holds");
    if (mode != "constant" && x->shape[d] == 0 && shape[d] > 0) {
      return InvalidModelError(mode + " padding of an empty axis");
    }
  }
  const std::vector<int64_t> in_strides = StridesOf(x->shape), out_strides = StridesOf(shape);
  Value out = EmptyLike(*x, shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t offset = 0;
    bool inside = true;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t c = (i / out_strides[d]) % shape[d] - pads[d];
      const int64_t n = x->shape[d];
      if (c < 0 || c >= n) {
        if (mode == "constant") {
          inside = false;
          break;
        }
        c = mode == "edge" ? (c < 0 ? 0 : n - 1) : mode == "wrap" ? Wrap(c, n) : Reflect(c, n);
      }
      offset += c * in_strides[d];
    }
    if (inside) {
      CopyElements(*x, offset, out, i, 1);
    } else if (out.is_floating()) {
      out.floats[i] = constant;
    } else {
      out.ints[i] = int_constant;
    }
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
