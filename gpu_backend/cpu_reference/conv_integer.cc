// The integer convolutions: ConvInteger ((X - x_zero) * (W - w_zero) as
// int32) and QLinearConv (the same product plus an int32 bias, rescaled by
// x_scale * w_scale / y_scale, rounded to nearest even, plus y_zero,
// saturated). Inputs are uint8/int8; w's zero point and scale may be per
// output channel. Products accumulate in int64, so nothing wraps before
// the int32 check.
#include <algorithm>
#include <cmath>
#include <limits>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/quantized.h"
#include "gpu_backend/cpu_reference/window.h"

namespace glpool {
namespace cpu_reference {
namespace {

// The zero point at `index` (absent: 0) as `count` values, one per tensor
// (repeated) or one per channel.
StatusOr<std::vector<int64_t>> ZeroPoint(const KernelContext& ctx, size_t index, int64_t count) {
  if (!ctx.has_input(index)) return std::vector<int64_t>(static_cast<size_t>(count), 0);
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> zero, ctx.IntsInput(index));
  if (zero.size() == 1) return std::vector<int64_t>(static_cast<size_t>(count), zero[0]);
  if (static_cast<int64_t>(zero.size()) != count) {
    return InvalidModelError(ctx.InputLabel(index) + " holds " + std::to_string(zero.size()) + " values, not 1 or " +
                             std::to_string(count));
  }
  return zero;
}

// (X - x_zero) conv (W - w_zero) in int64, N x M x spatial.
StatusOr<Value> IntegerConvolution(const KernelContext& ctx, size_t x_index, size_t x_zero_index, size_t w_index,
                                   size_t w_zero_index) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(x_index));
  GLPOOL_ASSIGN_OR_RETURN(const Value* w, ctx.Input(w_index));
  if (!IsQuantizedType(x->dtype) || !IsQuantizedType(w->dtype)) {
    return UnsupportedError("integer convolution of " + std::string(DataTypeName(x->dtype)) + " by " +
                            DataTypeName(w->dtype) + " (uint8 or int8 expected)");
  }
  if (x->shape.size() < 3 || w->shape.size() != x->shape.size()) {
    return InvalidModelError("X " + ShapeToString(x->shape) + " and W " + ShapeToString(w->shape) +
                             " must both be N x C x spatial...");
  }
  const std::vector<int64_t> kernel_from_w(w->shape.begin() + 2, w->shape.end());
  GLPOOL_ASSIGN_OR_RETURN(Window win, MakeForwardWindow(ctx.node, x->shape, kernel_from_w, /*ceil_mode=*/false));
  if (PadTo3(kernel_from_w, 1) != win.kernel) {
    return InvalidModelError("kernel_shape does not match W " + ShapeToString(w->shape));
  }
  const int64_t batch = x->shape[0], in_channels = x->shape[1], out_channels = w->shape[0];
  const int64_t group = ctx.node.GetInt("group", 1);
  if (group < 1 || in_channels % group != 0 || out_channels % group != 0 || w->shape[1] != in_channels / group) {
    return InvalidModelError("group " + std::to_string(group) + " does not fit X " + ShapeToString(x->shape) +
                             " and W " + ShapeToString(w->shape));
  }
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> x_zero, ZeroPoint(ctx, x_zero_index, 1));
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> w_zero, ZeroPoint(ctx, w_zero_index, out_channels));
  const int64_t ic_per_group = in_channels / group, oc_per_group = out_channels / group;
  Shape out_shape = {batch, out_channels};
  for (int d = 3 - win.spatial_rank; d < 3; ++d) out_shape.push_back(win.out[d]);
  std::vector<int64_t> y(static_cast<size_t>(ElementCount(out_shape)), 0);
  const int64_t ID = win.in[0], IH = win.in[1], IW = win.in[2];
  const int64_t OD = win.out[0], OH = win.out[1], OW = win.out[2];
  const int64_t KD = win.kernel[0], KH = win.kernel[1], KW = win.kernel[2];
  size_t at = 0;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t oc = 0; oc < out_channels; ++oc) {
      const int64_t g = oc / oc_per_group;
      for (int64_t od = 0; od < OD; ++od) {
        for (int64_t oh = 0; oh < OH; ++oh) {
          for (int64_t ow = 0; ow < OW; ++ow, ++at) {
            int64_t sum = 0;
            for (int64_t ic = 0; ic < ic_per_group; ++ic) {
              const int64_t channel = g * ic_per_group + ic;
              for (int64_t kd = 0; kd < KD; ++kd) {
                const int64_t id = od * win.stride[0] - win.pad_begin[0] + kd * win.dilation[0];
                if (id < 0 || id >= ID) continue;
                for (int64_t kh = 0; kh < KH; ++kh) {
                  const int64_t ih = oh * win.stride[1] - win.pad_begin[1] + kh * win.dilation[1];
                  if (ih < 0 || ih >= IH) continue;
                  for (int64_t kw = 0; kw < KW; ++kw) {
                    const int64_t iw = ow * win.stride[2] - win.pad_begin[2] + kw * win.dilation[2];
                    if (iw < 0 || iw >= IW) continue;  // padding holds the zero point: contributes 0
                    const int64_t xv = x->ints[static_cast<size_t>((((n * in_channels + channel) * ID + id) * IH + ih) * IW + iw)];
                    const int64_t wv = w->ints[static_cast<size_t>((((oc * ic_per_group + ic) * KD + kd) * KH + kh) * KW + kw)];
                    sum += (xv - x_zero[0]) * (wv - w_zero[static_cast<size_t>(oc)]);
                  }
                }
              }
            }
            y[at] = sum;
          }
        }
      }
    }
  }
  return MakeIntValue(DataType::kInt64, out_shape, std::move(y));
}

bool FitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

}  // namespace

// Inputs: x, w, x_zero_point, w_zero_point.
Status RunConvInteger(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(Value y, IntegerConvolution(ctx, 0, 2, 1, 3));
  for (int64_t v : y.ints) {
    if (!FitsInt32(v)) return InvalidModelError("ConvInteger result " + std::to_string(v) + " overflows int32");
  }
  outputs[0] = MakeIntValue(DataType::kInt32, y.shape, std::move(y.ints));
  return Status::Ok();
}

// Inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale,
// y_zero_point, B (int32, optional).
Status RunQLinearConv(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(Value acc, IntegerConvolution(ctx, 0, 2, 3, 5));
  const int64_t out_channels = acc.shape[1];
  const int64_t per_channel = ElementCount(acc.shape) / std::max<int64_t>(acc.shape[0] * out_channels, 1);
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<float> x_scale, ctx.FloatsInput(1));
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<float> w_scale, ctx.FloatsInput(4));
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<float> y_scale, ctx.FloatsInput(6));
  DataType y_type = DataType::kUint8;
  int64_t y_zero = 0;
  if (ctx.has_input(7)) {
    GLPOOL_ASSIGN_OR_RETURN(const Value* zero, ctx.Input(7));
    if (zero->ints.size() != 1) return UnsupportedError("QLinearConv with a per-channel y_zero_point");
    y_type = zero->dtype;
    y_zero = zero->ints[0];
  }
  if (!IsQuantizedType(y_type)) return UnsupportedError("QLinearConv to " + std::string(DataTypeName(y_type)));
  if (x_scale.size() != 1 || y_scale.size() != 1 ||
      (w_scale.size() != 1 && static_cast<int64_t>(w_scale.size()) != out_channels)) {
    return InvalidModelError("QLinearConv scales: x and y per tensor, w per tensor or per output channel (" +
                             std::to_string(out_channels) + ")");
  }
  std::vector<int64_t> bias(static_cast<size_t>(out_channels), 0);
  if (ctx.has_input(8)) {
    GLPOOL_ASSIGN_OR_RETURN(bias, ctx.IntsInput(8));
    if (static_cast<int64_t>(bias.size()) != out_channels) {
      return InvalidModelError("QLinearConv B holds " + std::to_string(bias.size()) + " values for " +
                               std::to_string(out_channels) + " output channels");
    }
  }
  std::vector<int64_t> y(acc.ints.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const size_t oc = static_cast<size_t>((static_cast<int64_t>(i) / per_channel) % out_channels);
    const double scale = static_cast<double>(x_scale[0]) * w_scale[w_scale.size() == 1 ? 0 : oc] / y_scale[0];
    y[i] = Saturate(y_type, std::nearbyint(static_cast<double>(acc.ints[i] + bias[oc]) * scale) +
                                  static_cast<double>(y_zero));
  }
  outputs[0] = MakeIntValue(y_type, acc.shape, std::move(y));
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
