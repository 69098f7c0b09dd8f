// SqueezeExcite (graph.h), glpool's own node: a global mean, then two
// matrix-vector products with the hidden activation between them; the
// executor applies the node's fused activation after.
#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/graph/fused_activation.h"

namespace glpool {
namespace cpu_reference {
namespace {

// W [rows, columns, 1, 1] . v + B (B optional) for each image.
StatusOr<std::vector<float>> Product(const KernelContext& ctx, size_t w_index, const std::vector<float>& v,
                                     int64_t batch, int64_t columns) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* w, ctx.FloatInput(w_index));
  if (w->shape.size() != 4 || w->shape[1] != columns || w->shape[2] != 1 || w->shape[3] != 1) {
    return InvalidModelError(ctx.InputLabel(w_index) + " " + ShapeToString(w->shape) + " must be [R, " +
                             std::to_string(columns) + ", 1, 1]");
  }
  const int64_t rows = w->shape[0];
  const Value* b = nullptr;
  if (ctx.has_input(w_index + 1)) {
    GLPOOL_ASSIGN_OR_RETURN(b, ctx.FloatInput(w_index + 1));
    if (b->size() != rows) {
      return InvalidModelError(ctx.InputLabel(w_index + 1) + " " + ShapeToString(b->shape) + " must hold " +
                               std::to_string(rows) + " values");
    }
  }
  std::vector<float> out(static_cast<size_t>(batch * rows));
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t r = 0; r < rows; ++r) {
      float sum = b ? b->floats[static_cast<size_t>(r)] : 0.0f;
      for (int64_t c = 0; c < columns; ++c) {
        sum += w->floats[static_cast<size_t>(r * columns + c)] * v[static_cast<size_t>(n * columns + c)];
      }
      out[static_cast<size_t>(n * rows + r)] = sum;
    }
  }
  return out;
}

}  // namespace

Status RunSqueezeExcite(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  if (x->shape.size() != 4) return InvalidModelError("X " + ShapeToString(x->shape) + " must be N x C x H x W");
  const int64_t batch = x->shape[0], channels = x->shape[1], plane = x->shape[2] * x->shape[3];
  std::vector<float> mean(static_cast<size_t>(batch * channels));
  for (int64_t i = 0; i < batch * channels; ++i) {
    double sum = 0.0;
    for (int64_t p = 0; p < plane; ++p) sum += x->floats[static_cast<size_t>(i * plane + p)];
    mean[static_cast<size_t>(i)] = plane > 0 ? static_cast<float>(sum / static_cast<double>(plane)) : 0.0f;
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> hidden, Product(ctx, 1, mean, batch, channels));
  const int64_t hidden_size = static_cast<int64_t>(hidden.size()) / std::max<int64_t>(batch, 1);
  const std::string type = ctx.node.GetString(kHiddenActivationAttr, "");
  if (!type.empty()) {
    const FusedActivation activation{type, ctx.node.GetFloats(kHiddenActivationParamsAttr)};
    GLPOOL_RETURN_IF_ERROR(ValidateFusedActivation(activation));
    for (float& h : hidden) h = ApplyFusedActivation(activation, h);
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> out, Product(ctx, 3, hidden, batch, hidden_size));
  const int64_t out_channels = static_cast<int64_t>(out.size()) / std::max<int64_t>(batch, 1);
  outputs[0] = MakeFloatValue({batch, out_channels, 1, 1}, std::move(out));
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
