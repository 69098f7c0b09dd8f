// ConvTranspose: the gradient of Conv, computed by scattering each input
// pixel through the kernel into the output (1-D to 3-D, grouped).
#include <algorithm>
#include <string>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/window.h"

namespace glpool {
namespace cpu_reference {

Status RunConvTranspose(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  GLPOOL_ASSIGN_OR_RETURN(const Value* w, ctx.FloatInput(1));
  const Value* bias = nullptr;
  if (ctx.has_input(2)) {
    GLPOOL_ASSIGN_OR_RETURN(bias, ctx.FloatInput(2));
  }
  const int64_t rank = static_cast<int64_t>(x->shape.size()) - 2;
  if (rank < 1 || w->shape.size() != x->shape.size()) {
    return InvalidModelError("X " + ShapeToString(x->shape) + " and W " +
                             ShapeToString(w->shape) + " must both be N x C x spatial...");
  }
  if (rank > kMaxSpatialRank) {
    return UnsupportedError(std::to_string(rank) + "-D ConvTranspose is not supported");
  }
  const size_t r = static_cast<size_t>(rank);
  const Node& node = ctx.node;
  const int64_t batch = x->shape[0], in_channels = x->shape[1];
  const int64_t group = node.GetInt("group", 1);
  if (group < 1 || in_channels % group != 0 || w->shape[0] != in_channels) {
    return InvalidModelError("group " + std::to_string(group) + " does not fit X " +
                             ShapeToString(x->shape) + " and W " + ShapeToString(w->shape));
  }
  const int64_t oc_per_group = w->shape[1], ic_per_group = in_channels / group;
  const int64_t out_channels = oc_per_group * group;
  if (bias && bias->size() != out_channels) {
    return InvalidModelError("B " + ShapeToString(bias->shape) + " must hold " +
                             std::to_string(out_channels) + " values");
  }
  const std::vector<int64_t> kernel =
      node.GetInts("kernel_shape", std::vector<int64_t>(w->shape.begin() + 2, w->shape.end()));
  const std::vector<int64_t> strides = node.GetInts("strides", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> dilations = node.GetInts("dilations", std::vector<int64_t>(r, 1));
  const std::vector<int64_t> out_padding = node.GetInts("output_padding", std::vector<int64_t>(r, 0));
  std::vector<int64_t> pads = node.GetInts("pads", std::vector<int64_t>(2 * r, 0));
  std::vector<int64_t> output_shape = node.GetInts("output_shape");
  const std::string auto_pad = node.GetString("auto_pad", "NOTSET");
  if (kernel.size() != r || strides.size() != r || dilations.size() != r ||
      out_padding.size() != r || pads.size() != 2 * r ||
      (!output_shape.empty() && output_shape.size() != r && output_shape.size() != r + 2)) {
    return InvalidModelError("attribute lengths do not match " + std::to_string(rank) +
                             " spatial dims");
  }
  if (output_shape.size() == r + 2) output_shape.erase(output_shape.begin(), output_shape.begin() + 2);

  std::vector<int64_t> in(x->shape.begin() + 2, x->shape.end()), out(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t full = strides[i] * (in[i] - 1) + out_padding[i] + (kernel[i] - 1) * dilations[i] + 1;
    const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
    if (!output_shape.empty() || same) {
      out[i] = output_shape.empty() ? in[i] * strides[i] : output_shape[i];
      const int64_t total = std::max<int64_t>(0, full - out[i]);
      // As the ONNX spec writes it: SAME_UPPER puts the odd pad at the end.
      pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[i + r] = total - pads[i];
    } else if (auto_pad == "VALID") {
      pads[i] = pads[i + r] = 0;
      out[i] = full;
    } else {
      out[i] = full - pads[i] - pads[i + r];
    }
    if (out[i] < 1) return InvalidModelError("output size is not positive");
  }
  const std::array<int64_t, 3> I = PadTo3(in, 1), O = PadTo3(out, 1), K = PadTo3(kernel, 1);
  const std::array<int64_t, 3> S = PadTo3(strides, 1), D = PadTo3(dilations, 1);
  const std::array<int64_t, 3> P = PadTo3(std::vector<int64_t>(pads.begin(), pads.begin() + r), 0);
  Shape out_shape = {batch, out_channels};
  out_shape.insert(out_shape.end(), out.begin(), out.end());
  Value result = MakeFloatValue(out_shape, std::vector<float>(ElementCount(out_shape)));
  const int64_t in_plane = I[0] * I[1] * I[2], out_plane = O[0] * O[1] * O[2];
  const int64_t k_size = K[0] * K[1] * K[2];
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t oc = 0; oc < out_channels; ++oc) {
      float* dst = result.floats.data() + (n * out_channels + oc) * out_plane;
      std::fill(dst, dst + out_plane, bias ? bias->floats[oc] : 0.0f);
      const int64_t g = oc / oc_per_group, m = oc % oc_per_group;
      for (int64_t c = 0; c < ic_per_group; ++c) {
        const int64_t ic = g * ic_per_group + c;
        const float* src = x->floats.data() + (n * in_channels + ic) * in_plane;
        const float* wk = w->floats.data() + (ic * oc_per_group + m) * k_size;
        for (int64_t id = 0; id < I[0]; ++id)
          for (int64_t ih = 0; ih < I[1]; ++ih)
            for (int64_t iw = 0; iw < I[2]; ++iw) {
              const float v = src[(id * I[1] + ih) * I[2] + iw];
              for (int64_t kd = 0; kd < K[0]; ++kd) {
                const int64_t od = id * S[0] - P[0] + kd * D[0];
                if (od < 0 || od >= O[0]) continue;
                for (int64_t kh = 0; kh < K[1]; ++kh) {
                  const int64_t oh = ih * S[1] - P[1] + kh * D[1];
                  if (oh < 0 || oh >= O[1]) continue;
                  for (int64_t kw = 0; kw < K[2]; ++kw) {
                    const int64_t ow = iw * S[2] - P[2] + kw * D[2];
                    if (ow < 0 || ow >= O[2]) continue;
                    dst[(od * O[1] + oh) * O[2] + ow] += v * wk[(kd * K[1] + kh) * K[2] + kw];
                  }
                }
              }
            }
      }
    }
  }
  outputs[0] = std::move(result);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
