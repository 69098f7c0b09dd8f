// Dropout. In inference it is the identity with an all-true mask. In
// training mode it drops elements at random; with a `seed` attribute the
// mask is reproducible, and this kernel draws it exactly as ONNX's reference
// does (numpy's legacy MT19937 stream, uniform in [0, 1), keep when
// u >= ratio), so the ONNX test cases can check it. Without a seed it is
// unsupported: an oracle cannot be random.
#include <random>

#include "gpu_backend/cpu_reference/kernels.h"

namespace glpool {
namespace cpu_reference {
namespace {

// numpy.random.RandomState(seed).uniform(0, 1, count): 53-bit doubles from
// pairs of MT19937 outputs.
std::vector<double> NumpyUniform(uint32_t seed, int64_t count) {
  std::mt19937 generator(seed);
  std::vector<double> values(count);
  for (double& v : values) {
    const uint32_t a = generator() >> 5, b = generator() >> 6;
    v = (a * 67108864.0 + b) / 9007199254740992.0;
  }
  return values;
}

}  // namespace

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
    const std::vector<double> u =
        NumpyUniform(static_cast<uint32_t>(ctx.node.GetInt("seed", 0)), x->size());
    const double scale = 1.0 / (1.0 - ratio);
    for (int64_t i = 0; i < x->size(); ++i) {
      mask[i] = u[i] >= ratio;
      y.floats[i] = static_cast<float>(mask[i] ? x->floats[i] * scale : 0.0);
    }
  }
  outputs[0] = std::move(y);
  if (outputs.size() > 1) outputs[1] = MakeIntValue(DataType::kBool, x->shape, std::move(mask));
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
