#include "gpu_backend/graph/winograd.h"

#include <cstddef>

namespace glpool {

std::vector<float> WinogradWeights(const std::vector<float>& weights, int64_t out_channels, int64_t in_channels) {
  const int64_t kp = WinogradPaddedChannels(out_channels), cp = WinogradPaddedChannels(in_channels);
  std::vector<float> out(static_cast<size_t>(kWinogradElements * kp * cp), 0.0f);
  for (int64_t k = 0; k < out_channels; ++k) {
    for (int64_t c = 0; c < in_channels; ++c) {
      const float* g = weights.data() + (k * in_channels + c) * 9;
      float gg[6][3];  // G g
      for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 3; ++j) {
          gg[i][j] = kWinogradG[i][0] * g[0 * 3 + j] + kWinogradG[i][1] * g[1 * 3 + j] + kWinogradG[i][2] * g[2 * 3 + j];
        }
      }
      for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {  // (G g) G^T
          const float u = gg[i][0] * kWinogradG[j][0] + gg[i][1] * kWinogradG[j][1] + gg[i][2] * kWinogradG[j][2];
          const int64_t e = i * 6 + j;
          out[static_cast<size_t>((e * kp + k) * cp + c)] = u;
        }
      }
    }
  }
  return out;
}

}  // namespace glpool
