#include "gpu_backend/graph/winograd.h"

#include <cstddef>

namespace glpool {

std::vector<float> WinogradWeights(const std::vector<float>& weights, int64_t out_channels, int64_t in_channels) {
  const int64_t kp = WinogradPaddedChannels(out_channels), cp = WinogradPaddedChannels(in_channels);
  std::vector<float> out(static_cast<size_t>(kWinogradElements * kp * cp), 0.0f);
  for (int64_t k = 0; k < out_channels; ++k) {
    for (int64_t c = 0; c < in_channels; ++c) {
      float g[3][3];
      for (int e = 0; e < 9; ++e) g[e / 3][e % 3] = weights[static_cast<size_t>((k * in_channels + c) * 9 + e)];
      float u[6][6];
      WinogradSandwich(kWinogradG, g, u);
      for (int e = 0; e < kWinogradElements; ++e) out[static_cast<size_t>((e * kp + k) * cp + c)] = u[e / 6][e % 6];
    }
  }
  return out;
}

}  // namespace glpool
