// Conv: direct convolution, 1-D to 3-D, any group count (depthwise is
// group == C). No im2col: each output row (bias first) accumulates the
// kernel-weighted input rows it reads, so inner loops are contiguous
// multiply-adds the compiler vectorizes while the row stays in L1, and the
// few input rows one output row needs stay in cache across all output
// channels. u2netp (20 GMAC) runs in a few seconds this way.
#include <algorithm>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/window.h"

namespace glpool {
namespace cpu_reference {
namespace {

// The output columns [begin, end) whose input column ow*stride + offset
// lies inside [0, in_width).
void ValidColumns(int64_t offset, int64_t stride, int64_t in_width, int64_t out_width,
                  int64_t* begin, int64_t* end) {
  int64_t b = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int64_t e = in_width - offset <= 0 ? 0 : (in_width - offset + stride - 1) / stride;
  *begin = std::min(b, out_width);
  *end = std::max(*begin, std::min(e, out_width));
}

// The kw taps of one kernel row: where each reads and which output
// columns it reaches; `begin`/`end` bound the columns every tap reaches.
struct RowTaps {
  int64_t count = 0, stride = 1;
  std::vector<int64_t> offset, col_begin, col_end;
  int64_t begin = 0, end = 0;
};

// out_row[ow] += sum_kw w_row[kw] * in_row[ow * stride + offset[kw]].
// Columns every tap reaches sum their taps before touching out_row (one
// load/store per output for all taps, in a loop the compiler vectorizes
// for the common kernel widths); edge columns go tap by tap.
template <int kTaps>
void AccumulateInterior(const float* in_row, const float* w_row, const RowTaps& t,
                        float* out_row) {
  float w[kTaps];
  int64_t off[kTaps];
  for (int k = 0; k < kTaps; ++k) {
    w[k] = w_row[k];
    off[k] = t.offset[k];
  }
  for (int64_t ow = t.begin; ow < t.end; ++ow) {
    float sum = 0.0f;
    for (int k = 0; k < kTaps; ++k) sum += w[k] * in_row[ow + off[k]];
    out_row[ow] += sum;
  }
}

void AccumulateRow(const float* in_row, const float* w_row, const RowTaps& t, float* out_row) {
  const bool fused = t.stride == 1 && t.begin < t.end && (t.count == 3 || t.count == 5 || t.count == 7);
  for (int64_t kw = 0; kw < t.count; ++kw) {
    const float wv = w_row[kw];
    const int64_t offset = t.offset[kw];
    // With a fused interior, this tap only covers the edge columns.
    const int64_t gap_begin = fused ? t.begin : t.col_end[kw];
    const int64_t gap_end = fused ? t.end : t.col_end[kw];
    for (int64_t ow = t.col_begin[kw]; ow < gap_begin; ++ow) out_row[ow] += wv * in_row[ow * t.stride + offset];
    for (int64_t ow = gap_end; ow < t.col_end[kw]; ++ow) out_row[ow] += wv * in_row[ow * t.stride + offset];
  }
  if (!fused) return;
  if (t.count == 3) AccumulateInterior<3>(in_row, w_row, t, out_row);
  if (t.count == 5) AccumulateInterior<5>(in_row, w_row, t, out_row);
  if (t.count == 7) AccumulateInterior<7>(in_row, w_row, t, out_row);
}

}  // namespace

Status RunConv(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  // The fused channel gate (graph.h): X scaled per (image, channel) first.
  Value gated;
  if (ctx.has_input(3)) {
    GLPOOL_ASSIGN_OR_RETURN(const Value* gate, ctx.FloatInput(3));
    const Shape& g = gate->shape;
    if (!IsChannelGateShape(g, x->shape)) {
      return InvalidModelError("the channel gate " + ShapeToString(g) + " must be [1 or N, C, 1, 1] for X " +
                               ShapeToString(x->shape));
    }
    gated = *x;
    const int64_t channels = x->shape[1], plane = x->shape[2] * x->shape[3];
    for (int64_t n = 0; n < x->shape[0]; ++n) {
      for (int64_t c = 0; c < channels; ++c) {
        const float scale = gate->floats[static_cast<size_t>((g[0] == 1 ? 0 : n) * channels + c)];
        float* row = gated.floats.data() + (n * channels + c) * plane;
        for (int64_t i = 0; i < plane; ++i) row[i] *= scale;
      }
    }
    x = &gated;
  }
  GLPOOL_ASSIGN_OR_RETURN(const Value* w, ctx.FloatInput(1));
  const Value* bias = nullptr;
  if (ctx.has_input(2)) {
    GLPOOL_ASSIGN_OR_RETURN(bias, ctx.FloatInput(2));
  }
  if (x->shape.size() < 3 || w->shape.size() != x->shape.size()) {
    return InvalidModelError("X " + ShapeToString(x->shape) + " and W " +
                             ShapeToString(w->shape) + " must both be N x C x spatial...");
  }
  const std::vector<int64_t> kernel_from_w(w->shape.begin() + 2, w->shape.end());
  GLPOOL_ASSIGN_OR_RETURN(Window win, MakeForwardWindow(ctx.node, x->shape, kernel_from_w,
                                                        /*ceil_mode=*/false));
  if (PadTo3(kernel_from_w, 1) != win.kernel) {
    return InvalidModelError("kernel_shape does not match W " + ShapeToString(w->shape));
  }
  const int64_t batch = x->shape[0], in_channels = x->shape[1], out_channels = w->shape[0];
  const int64_t group = ctx.node.GetInt("group", 1);
  if (group < 1 || in_channels % group != 0 || out_channels % group != 0 ||
      w->shape[1] != in_channels / group) {
    return InvalidModelError("group " + std::to_string(group) + " does not fit X " +
                             ShapeToString(x->shape) + " and W " + ShapeToString(w->shape));
  }
  if (bias && bias->size() != out_channels) {
    return InvalidModelError("B " + ShapeToString(bias->shape) + " must hold " +
                             std::to_string(out_channels) + " values");
  }
  const int64_t ic_per_group = in_channels / group, oc_per_group = out_channels / group;
  Shape out_shape = {batch, out_channels};
  for (int d = 3 - win.spatial_rank; d < 3; ++d) out_shape.push_back(win.out[d]);
  Value out = MakeFloatValue(out_shape, std::vector<float>(ElementCount(out_shape)));

  const int64_t ID = win.in[0], IH = win.in[1], IW = win.in[2];
  const int64_t OD = win.out[0], OH = win.out[1], OW = win.out[2];
  const int64_t KD = win.kernel[0], KH = win.kernel[1], KW = win.kernel[2];
  RowTaps taps;
  taps.count = KW;
  taps.stride = win.stride[2];
  taps.offset.resize(KW);
  taps.col_begin.resize(KW);
  taps.col_end.resize(KW);
  taps.begin = 0;
  taps.end = OW;
  for (int64_t kw = 0; kw < KW; ++kw) {
    taps.offset[kw] = kw * win.dilation[2] - win.pad_begin[2];
    ValidColumns(taps.offset[kw], taps.stride, IW, OW, &taps.col_begin[kw], &taps.col_end[kw]);
    taps.begin = std::max(taps.begin, taps.col_begin[kw]);
    taps.end = std::min(taps.end, taps.col_end[kw]);
  }
  // Output rows outermost, channels inside: the few input rows one output
  // row reads stay in cache while every output channel uses them.
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t od = 0; od < OD; ++od) {
      for (int64_t oh = 0; oh < OH; ++oh) {
        for (int64_t oc = 0; oc < out_channels; ++oc) {
          const int64_t g = oc / oc_per_group;
          const float* in_group = x->floats.data() + (n * in_channels + g * ic_per_group) * ID * IH * IW;
          const float* weights = w->floats.data() + oc * ic_per_group * KD * KH * KW;
          float* out_row = out.floats.data() + (((n * out_channels + oc) * OD + od) * OH + oh) * OW;
          std::fill(out_row, out_row + OW, bias ? bias->floats[oc] : 0.0f);
          for (int64_t ic = 0; ic < ic_per_group; ++ic) {
            for (int64_t kd = 0; kd < KD; ++kd) {
              const int64_t id = od * win.stride[0] - win.pad_begin[0] + kd * win.dilation[0];
              if (id < 0 || id >= ID) continue;
              for (int64_t kh = 0; kh < KH; ++kh) {
                const int64_t ih = oh * win.stride[1] - win.pad_begin[1] + kh * win.dilation[1];
                if (ih < 0 || ih >= IH) continue;
                const float* in_row = in_group + ((ic * ID + id) * IH + ih) * IW;
                const float* w_row = weights + ((ic * KD + kd) * KH + kh) * KW;
                AccumulateRow(in_row, w_row, taps, out_row);
              }
            }
          }
        }
      }
    }
  }
  // The fused residual (graph.h), before the executor applies the
  // activation.
  if (ctx.has_input(4)) {
    GLPOOL_ASSIGN_OR_RETURN(const Value* residual, ctx.FloatInput(4));
    if (residual->shape != out.shape) {
      return InvalidModelError("the residual " + ShapeToString(residual->shape) + " must have Y's shape " +
                               ShapeToString(out.shape));
    }
    for (size_t i = 0; i < out.floats.size(); ++i) out.floats[i] += residual->floats[i];
  }
  outputs[0] = std::move(out);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
