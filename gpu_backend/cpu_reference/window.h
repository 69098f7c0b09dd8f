// Sliding-window geometry shared by Conv, ConvTranspose and the pools.
//
// Spatial dims are padded to three (leading 1s), so 1-D, 2-D and 3-D ops run
// through one set of loops: a 2-D conv is a 3-D conv of depth 1.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {
namespace cpu_reference {

inline constexpr int kMaxSpatialRank = 3;

struct Window {
  int spatial_rank = 0;  // 1..3, as in the model
  // Index 0 = depth, 1 = height, 2 = width; unused leading dims are 1/0.
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, kernel{1, 1, 1};
  std::array<int64_t, 3> stride{1, 1, 1}, dilation{1, 1, 1};
  std::array<int64_t, 3> pad_begin{0, 0, 0}, pad_end{0, 0, 0};

  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
  int64_t kernel_size() const { return kernel[0] * kernel[1] * kernel[2]; }
};

// Geometry of a forward window op (Conv, MaxPool, AveragePool) on an input
// of shape N x C x spatial..., from the node's kernel_shape (or `kernel`
// when the attribute is absent, as Conv allows), strides, dilations, pads
// and auto_pad. `ceil_mode` rounds the output size up, dropping a last window
// that would start in the end padding (as PyTorch and ONNX Runtime do).
StatusOr<Window> MakeForwardWindow(const Node& node, const Shape& input_shape,
                                   const std::vector<int64_t>& kernel, bool ceil_mode);

// Widens per-spatial-dim attribute values to the padded 3-D layout.
std::array<int64_t, 3> PadTo3(const std::vector<int64_t>& values, int64_t fill);

}  // namespace cpu_reference
}  // namespace glpool
