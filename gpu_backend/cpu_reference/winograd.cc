// The two internal ops a Conv becomes under Winograd's F(4x4, 3x3)
// (graph/winograd.h): the reference the GPU kernels are checked against.
#include "gpu_backend/cpu_reference/kernels.h"
#include "gpu_backend/graph/winograd.h"

namespace glpool {
namespace cpu_reference {
namespace {

// The node's `name` attribute, which must hold `count` ints.
StatusOr<std::vector<int64_t>> CountedInts(const Node& node, const char* name, size_t count) {
  const std::vector<int64_t> values = node.GetInts(name);
  if (values.size() != count) {
    return InvalidModelError(std::string(name) + " must hold " + std::to_string(count) + " values");
  }
  return values;
}

}  // namespace

// X [N, C, H, W] -> V [N, 36 * Cp, TH, TW]: tile (ty, tx) reads input rows
// 4 ty - pads[0] + 0..5 and columns 4 tx - pads[1] + 0..5 (zero outside)
// and holds B^T d B, element e of channel c at channel e * Cp + c.
Status RunWinogradInputTransform(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* x, ctx.FloatInput(0));
  if (x->shape.size() != 4) return InvalidModelError("X must be N x C x H x W, is " + ShapeToString(x->shape));
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, CountedInts(ctx.node, "pads", 2));
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> tiles, CountedInts(ctx.node, "tiles", 2));
  const int64_t n_size = x->shape[0], channels = x->shape[1], h = x->shape[2], w = x->shape[3];
  const int64_t cp = WinogradPaddedChannels(channels), th = tiles[0], tw = tiles[1];
  if (th < 1 || tw < 1 || th > h + 8 || tw > w + 8 || pads[0] < 0 || pads[1] < 0 || pads[0] > 2 || pads[1] > 2) {
    return InvalidModelError("tiles or pads out of range");
  }
  const Shape shape = {n_size, kWinogradElements * cp, th, tw};
  Value v = MakeFloatValue(shape, std::vector<float>(static_cast<size_t>(ElementCount(shape)), 0.0f));
  for (int64_t n = 0; n < n_size; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      const float* plane = x->floats.data() + (n * channels + c) * h * w;
      for (int64_t ty = 0; ty < th; ++ty) {
        for (int64_t tx = 0; tx < tw; ++tx) {
          float d[6][6];
          for (int i = 0; i < 6; ++i) {
            for (int j = 0; j < 6; ++j) {
              const int64_t y = ty * 4 - pads[0] + i, xx = tx * 4 - pads[1] + j;
              d[i][j] = y >= 0 && y < h && xx >= 0 && xx < w ? plane[y * w + xx] : 0.0f;
            }
          }
          float u[6][6];  // B^T d B
          WinogradSandwich(kWinogradBT, d, u);
          for (int e = 0; e < kWinogradElements; ++e) {
            v.floats[static_cast<size_t>(((n * kWinogradElements * cp + e * cp + c) * th + ty) * tw + tx)] =
                u[e / 6][e % 6];
          }
        }
      }
    }
  }
  outputs[0] = std::move(v);
  return Status::Ok();
}

// M [N, 36 * Kp, TH, TW] (+ bias [K], + residual [N, K, OH, OW]) -> Y
// [N, K, OH, OW], output_shape = (K, OH, OW): output (4 ty + a, 4 tx + b)
// is (A^T m A)[a][b] of its tile. The executor applies the fused
// activation after it, as for the Conv it replaces.
Status RunWinogradOutputTransform(const KernelContext& ctx, std::vector<Value>& outputs) {
  GLPOOL_ASSIGN_OR_RETURN(const Value* m, ctx.FloatInput(0));
  if (m->shape.size() != 4) return InvalidModelError("M must be N x C x H x W, is " + ShapeToString(m->shape));
  GLPOOL_ASSIGN_OR_RETURN(const std::vector<int64_t> out_shape, CountedInts(ctx.node, "output_shape", 3));
  const int64_t n_size = m->shape[0], k_size = out_shape[0], oh = out_shape[1], ow = out_shape[2];
  const int64_t kp = WinogradPaddedChannels(k_size), th = m->shape[2], tw = m->shape[3];
  if (k_size < 1 || oh < 1 || ow < 1 || m->shape[1] != kWinogradElements * kp || th * 4 < oh || tw * 4 < ow) {
    return InvalidModelError("M " + ShapeToString(m->shape) + " does not hold the tiles of a " +
                             std::to_string(k_size) + " x " + std::to_string(oh) + " x " + std::to_string(ow) +
                             " output");
  }
  const Value* bias = nullptr;
  if (ctx.has_input(1)) {
    GLPOOL_ASSIGN_OR_RETURN(bias, ctx.FloatInput(1));
    if (bias->shape != Shape{k_size}) return InvalidModelError("the bias must be [" + std::to_string(k_size) + "]");
  }
  const Shape shape = {n_size, k_size, oh, ow};
  const Value* residual = nullptr;
  if (ctx.has_input(2)) {
    GLPOOL_ASSIGN_OR_RETURN(residual, ctx.FloatInput(2));
    if (residual->shape != shape) return InvalidModelError("the residual must be " + ShapeToString(shape));
  }
  Value y = MakeFloatValue(shape, std::vector<float>(static_cast<size_t>(ElementCount(shape)), 0.0f));
  for (int64_t n = 0; n < n_size; ++n) {
    for (int64_t k = 0; k < k_size; ++k) {
      for (int64_t ty = 0; ty < th; ++ty) {
        for (int64_t tx = 0; tx < tw; ++tx) {
          float mm[6][6];
          for (int e = 0; e < kWinogradElements; ++e) {
            mm[e / 6][e % 6] =
                m->floats[static_cast<size_t>(((n * kWinogradElements * kp + e * kp + k) * th + ty) * tw + tx)];
          }
          float o[4][4];  // A^T m A
          WinogradSandwich(kWinogradAT, mm, o);
          for (int a = 0; a < 4; ++a) {
            for (int b = 0; b < 4; ++b) {
              const int64_t oy = ty * 4 + a, ox = tx * 4 + b;
              if (oy >= oh || ox >= ow) continue;
              const float sum = o[a][b] + (bias ? bias->floats[static_cast<size_t>(k)] : 0.0f);
              const size_t at = static_cast<size_t>(((n * k_size + k) * oh + oy) * ow + ox);
              y.floats[at] = sum + (residual ? residual->floats[at] : 0.0f);
            }
          }
        }
      }
    }
  }
  outputs[0] = std::move(y);
  return Status::Ok();
}

}  // namespace cpu_reference
}  // namespace glpool
