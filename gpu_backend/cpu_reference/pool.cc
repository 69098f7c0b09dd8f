// MaxPool, AveragePool (1-D to 3-D) and the global pools (any rank).
#include <algorithm>
#include <cmath>
#include <limits>

#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/cpu_reference/window.h"

namespace glpool {
namespace cpu_reference {
namespace {

Shape PooledShape(const Shape& in, const Window& w) {
  Shape out = {in[0], in[1]};
  for (int d = 3 - w.spatial_rank; d < 3; ++d) out.push_back(w.out[d]);
  return out;
}

}  // namespace

Status RunMaxPool(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.Input(0));
  // uint8/int8 MaxPool (opset 12) is exact in float.
  const bool small_int = x->dtype == DataType::kUint8 || x->dtype == DataType::kInt8;
  if (!small_int) GLPOOL_RETURN_IF_ERROR(ctx.FloatInput(0).status());
  const bool ceil_mode = ctx.node.GetInt("ceil_mode", 0) != 0;
  GLPOOL_ASSIGN_OR_RETURN(Window w, MakeForwardWindow(ctx.node, x->shape, {}, ceil_mode));
  // storage_order only changes how Indices flatten the spatial position.
  const bool column_major = ctx.node.GetInt("storage_order", 0) != 0;
  const Shape out_shape = PooledShape(x->shape, w);
  const int64_t planes = x->shape[0] * x->shape[1];
  std::vector<float> in = small_int ? std::vector<float>(x->ints.begin(), x->ints.end()) : x->floats;
  std::vector<float> out(ElementCount(out_shape));
  std::vector<int64_t> indices(out.size());
  for (int64_t p = 0; p < planes; ++p) {
    const float* src = in.data() + p * w.in_size();
    int64_t o = p * w.out_size();
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh)
        for (int64_t ow = 0; ow < w.out[2]; ++ow, ++o) {
          float best = -std::numeric_limits<float>::infinity();
          int64_t best_index = -1;
          for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
            const int64_t id = od * w.stride[0] - w.pad_begin[0] + kd * w.dilation[0];
            if (id < 0 || id >= w.in[0]) continue;
            for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
              const int64_t ih = oh * w.stride[1] - w.pad_begin[1] + kh * w.dilation[1];
              if (ih < 0 || ih >= w.in[1]) continue;
              for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
                const int64_t iw = ow * w.stride[2] - w.pad_begin[2] + kw * w.dilation[2];
                if (iw < 0 || iw >= w.in[2]) continue;
                const float v = src[(id * w.in[1] + ih) * w.in[2] + iw];
                if (v > best || best_index < 0) {
                  best = v;
                  best_index = column_major ? (iw * w.in[1] + ih) * w.in[0] + id
                                            : (id * w.in[1] + ih) * w.in[2] + iw;
                }
              }
            }
          }
          out[o] = best;
          indices[o] = p * w.in_size() + best_index;
        }
  }
  if (small_int) {
    outputs[0] = MakeIntValue(x->dtype, out_shape, std::vector<int64_t>(out.begin(), out.end()));
  } else {
    outputs[0] = MakeFloatValue(out_shape, std::move(out));
  }
  if (ctx.node.outputs.size() > 1 && !ctx.node.outputs[1].empty()) {
    outputs[1] = MakeIntValue(DataType::kInt64, out_shape, std::move(indices));
  }
  return Status::Ok();
}

Status RunAveragePool(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  const bool ceil_mode = ctx.node.GetInt("ceil_mode", 0) != 0;
  const bool count_pad = ctx.node.GetInt("count_include_pad", 0) != 0;
  GLPOOL_ASSIGN_OR_RETURN(Window w, MakeForwardWindow(ctx.node, x->shape, {}, ceil_mode));
  const Shape out_shape = PooledShape(x->shape, w);
  const int64_t planes = x->shape[0] * x->shape[1];
  std::vector<float> out(ElementCount(out_shape));
  for (int64_t p = 0; p < planes; ++p) {
    const float* src = x->floats.data() + p * w.in_size();
    int64_t o = p * w.out_size();
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh)
        for (int64_t ow = 0; ow < w.out[2]; ++ow, ++o) {
          // Cells start + k * dilation (dilations: opset 19). count_include_pad
          // counts pad cells, but not the cells a ceil-mode window reaches
          // beyond the end padding.
          const int64_t pos[3] = {od, oh, ow};
          int64_t start[3];
          int64_t padded_count = 1, valid = 1;
          for (int a = 0; a < 3; ++a) {
            start[a] = pos[a] * w.stride[a] - w.pad_begin[a];
            int64_t inside = 0, below_end = 0;
            for (int64_t k = 0; k < w.kernel[a]; ++k) {
              const int64_t i = start[a] + k * w.dilation[a];
              inside += i >= 0 && i < w.in[a];
              below_end += i < w.in[a] + w.pad_end[a];
            }
            valid *= inside;
            padded_count *= below_end;
          }
          float sum = 0.0f;
          for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
            const int64_t id = start[0] + kd * w.dilation[0];
            if (id < 0 || id >= w.in[0]) continue;
            for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
              const int64_t ih = start[1] + kh * w.dilation[1];
              if (ih < 0 || ih >= w.in[1]) continue;
              for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
                const int64_t iw = start[2] + kw * w.dilation[2];
                if (iw < 0 || iw >= w.in[2]) continue;
                sum += src[(id * w.in[1] + ih) * w.in[2] + iw];
              }
            }
          }
          out[o] = sum / static_cast<float>(count_pad ? padded_count : valid);
        }
  }
  outputs[0] = MakeFloatValue(out_shape, std::move(out));
  return Status::Ok();
}

namespace {

template <typename Reduce>
Status GlobalPool(const KernelContext& ctx, std::vector<Value>& outputs, Reduce reduce) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  if (x->shape.size() < 3) {
    return InvalidModelError("input must be N x C x spatial..., is " + ShapeToString(x->shape));
  }
  Shape out_shape = x->shape;
  std::fill(out_shape.begin() + 2, out_shape.end(), 1);
  const int64_t planes = x->shape[0] * x->shape[1];
  const int64_t plane = planes ? x->size() / planes : 0;
  std::vector<float> out(planes);
  for (int64_t p = 0; p < planes; ++p) out[p] = reduce(x->floats.data() + p * plane, plane);
  outputs[0] = MakeFloatValue(out_shape, std::move(out));
  return Status::Ok();
}

}  // namespace

Status RunGlobalAveragePool(const KernelContext& ctx, std::vector<Value>& outputs) {
  return GlobalPool(ctx, outputs, [](const float* v, int64_t n) {
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += v[i];
    return static_cast<float>(sum / static_cast<double>(n));
  });
}

Status RunGlobalMaxPool(const KernelContext& ctx, std::vector<Value>& outputs) {
  return GlobalPool(ctx, outputs, [](const float* v, int64_t n) {
    float best = -std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i) best = std::max(best, v[i]);
    return best;
  });
}

}  // namespace cpu_reference
}  // namespace glpool
