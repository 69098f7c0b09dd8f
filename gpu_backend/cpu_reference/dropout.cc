// Dropout. In inference it is the identity with an all-true mask. In
// training mode it drops elements at random; with a `seed` attribute the
// mask is reproducible, and this kernel draws it exactly as ONNX's reference
// does (numpy's legacy MT19937 stream, uniform in [0, 1), keep when
// u >= ratio), so the ONNX test cases can check it. Without a seed it is
// unsupported: an oracle cannot be random.
#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/graph/seeded_dropout.h"

namespace glpool {
namespace cpu_reference {

Status RunDropout(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  bool training = false;
  float ratio = ctx.node.GetFloat("ratio", 0.5f);
  if (ctx.opset >= 12) {
    if (ctx.has_input(2)) {
      GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> t, ctx.IntsInput(2));
      training = !t.empty() && t[0] != 0;
    }
    ratio = 0.5f;
    if (ctx.has_input(1)) {
      GLPOOL_ASSIGN_OR_RETURN(std::vector<float> r, ctx.FloatsInput(1));
      if (r.size() != 1) return InvalidModelError(ctx.InputLabel(1) + " must be a scalar");
      ratio = r[0];
    }
  }
  Value y = *x;
  std::vector<int64_t> mask(x->size(), 1);
  if (training && ratio != 0.0f) {
    if (ratio < 0.0f || ratio >= 1.0f) return InvalidModelError("ratio must be in [0, 1)");
    if (!ctx.node.HasAttribute("seed")) {
      return UnsupportedError("Dropout in training mode without a seed is random");
    }
    const std::vector<uint8_t> keep = SeededDropoutMask(ctx.node.GetInt("seed", 0), x->size(), ratio);
    const double scale = 1.0 / (1.0 - ratio);
    for (int64_t i = 0; i < x->size(); ++i) {
      mask[i] = keep[i];
      y.floats[i] = static_cast<float>(mask[i] ? x->floats[i] * scale : 0.0);
    }
  }
  outputs[0] = std::move(y);
  if (outputs.size() > 1) outputs[1] = MakeIntValue(DataType::kBool, x->shape, std::move(mask));
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
