// Winograd's F(4x4, 3x3) for 3x3 stride-1 convolutions (Lavin and Gray,
// "Fast Algorithms for Convolutional Neural Networks", 2016): a 6x6 input
// tile d and a 3x3 kernel g give a 4x4 output tile as
//   Y = A^T [(G g G^T) . (B^T d B)] A
// where . multiplies element by element. Summed over input channels, the
// 36 elements of the middle are 36 independent matrix products, [tiles x C]
// by [C x K]: 36 products per input channel and output channel for 16
// outputs, against 144 for the direct form (9 per output).
//
// The GPU session runs a qualifying Conv as three tasks (passes/winograd.cc):
//   WinogradInputTransform   X [N, C, H, W] -> V [N, 36 * Cp, TH, TW]
//   Conv, 1x1 in 36 groups   V -> M [N, 36 * Kp, TH, TW], weights G g G^T
//   WinogradOutputTransform  M (+ bias, + residual) -> Y [N, K, OH, OW]
// with TH x TW tiles of 4x4 outputs, Cp and Kp the channel counts rounded up
// to whole slices of 4 (element e of channel c is channel e * Cp + c, so
// each element's channels are whole slices), and the Conv's fused
// activation applied by the output transform.
#pragma once

#include <cstdint>
#include <vector>

namespace glpool {

inline constexpr int kWinogradOutputTile = 4;  // a tile's outputs per side
inline constexpr int kWinogradInputTile = 6;   // the input it reads per side
inline constexpr int kWinogradElements = kWinogradInputTile * kWinogradInputTile;  // 36

// B^T (6 x 6), G (6 x 3) and A^T (4 x 6) for the points 0, 1, -1, 2, -2, inf.
inline constexpr float kWinogradBT[6][6] = {
    {4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
    {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1},
};
inline constexpr float kWinogradG[6][3] = {
    {1.0f / 4, 0, 0},
    {-1.0f / 6, -1.0f / 6, -1.0f / 6},
    {-1.0f / 6, 1.0f / 6, -1.0f / 6},
    {1.0f / 24, 1.0f / 12, 1.0f / 6},
    {1.0f / 24, -1.0f / 12, 1.0f / 6},
    {0, 0, 1},
};
inline constexpr float kWinogradAT[4][6] = {
    {1, 1, 1, 1, 1, 0},
    {0, 1, -1, 2, -2, 0},
    {0, 1, 1, 4, 4, 0},
    {0, 1, -1, 8, -8, 1},
};

// L X L^T for an R x C matrix L and a C x C matrix X: the three transforms
// are all of this form (G g G^T, B^T d B, A^T m A), summed in index order.
template <int R, int C>
void WinogradSandwich(const float (&l)[R][C], const float (&x)[C][C], float (&out)[R][R]) {
  float lx[R][C];
  for (int i = 0; i < R; ++i) {
    for (int j = 0; j < C; ++j) {
      float sum = 0;
      for (int k = 0; k < C; ++k) sum += l[i][k] * x[k][j];
      lx[i][j] = sum;
    }
  }
  for (int i = 0; i < R; ++i) {
    for (int j = 0; j < R; ++j) {
      float sum = 0;
      for (int k = 0; k < C; ++k) sum += lx[i][k] * l[j][k];
      out[i][j] = sum;
    }
  }
}

// Convs with fewer input or output channels, or outputs smaller than this
// along either side, keep the direct kernel (passes/winograd.cc). The
// input transform stores 2.25 values per input value, a cost that grows
// with the input channels and that only the output channels' products
// repay: on llvmpipe it costs about as much per input channel and pixel
// as 140 of the direct kernel's multiply-adds, so convs with few outputs
// lose. One thread, best of 2-3 processes, the conv's tasks: 96 -> 24 at
// 160x160 75.4 ms as Winograd against 58.1 direct, at 80x80 20.9 vs 17.3;
// 16 outputs lost in 8 of 12 sizes (16, 32, 64, 128 in at 28, 56, 112;
// 32 -> 16 at 112x112 15.4 vs 7.0), 32 or more won in most (64 -> 64 at
// 112x112 32.7 vs 90.0, 128 -> 32 54.2 vs 82.9).
inline constexpr int64_t kMinWinogradChannels = 16;
inline constexpr int64_t kMinWinogradOutputChannels = 32;
inline constexpr int64_t kMinWinogradSize = 7;

// Channels rounded up to whole slices of 4.
inline int64_t WinogradPaddedChannels(int64_t channels) { return (channels + 3) / 4 * 4; }

// The 36-group 1x1 Conv's weights [36 * Kp, Cp, 1, 1] from the 3x3 kernel
// `weights` [K, C, 3, 3] (row-major): element e of (k, c) is (G g G^T)[e / 6]
// [e % 6], at [e * Kp + k][c]; padding channels hold 0.
std::vector<float> WinogradWeights(const std::vector<float>& weights, int64_t out_channels, int64_t in_channels);

}  // namespace glpool
