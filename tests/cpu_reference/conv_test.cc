// Conv and ConvTranspose against hand-computed values, plus a randomized
// comparison with a deliberately naive convolution written from the ONNX
// formula (no shared code with the kernel).
#include <random>

#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::RunFloatOp;

const TensorData kImage3x3 = Floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
const TensorData kOnes2x2 = Floats({1, 1, 2, 2}, {1, 1, 1, 1});

TEST(ConvTest, SumsEachWindow) {
  ExpectFloats(RunFloatOp("Conv", {kImage3x3, kOnes2x2}), {1, 1, 2, 2}, {12, 16, 24, 28});
}

TEST(ConvTest, PadsAndStrides) {
  // Windows at rows/cols {-1,0} and {1,2}: only in-image cells count.
  ExpectFloats(RunFloatOp("Conv", {kImage3x3, kOnes2x2},
                          {{"pads", std::vector<int64_t>{1, 1, 1, 1}},
                           {"strides", std::vector<int64_t>{2, 2}}}),
               {1, 1, 2, 2}, {1, 5, 11, 28});
}

TEST(ConvTest, DilationSpreadsTheTaps) {
  ExpectFloats(RunFloatOp("Conv", {kImage3x3, kOnes2x2}, {{"dilations", std::vector<int64_t>{2, 2}}}),
               {1, 1, 1, 1}, {1 + 3 + 7 + 9});
}

TEST(ConvTest, BiasIsAdded) {
  ExpectFloats(RunFloatOp("Conv", {kImage3x3, kOnes2x2, Floats({1}, {0.5f})}), {1, 1, 2, 2},
               {12.5f, 16.5f, 24.5f, 28.5f});
}

TEST(ConvTest, DepthwiseUsesOneChannelPerGroup) {
  const TensorData x = Floats({1, 2, 1, 2}, {1, 1, 2, 2});
  const TensorData w = Floats({2, 1, 1, 1}, {3, 5});
  ExpectFloats(RunFloatOp("Conv", {x, w, Floats({2}, {1, -1})}, {{"group", int64_t{2}}}), {1, 2, 1, 2},
               {4, 4, 9, 9});
}

TEST(ConvTest, GroupsSplitInputChannels) {
  // Two groups of two input channels; output channel g sums its group.
  const TensorData x = Floats({1, 4, 1, 1}, {1, 2, 3, 4});
  const TensorData w = Floats({2, 2, 1, 1}, {1, 1, 1, 1});
  ExpectFloats(RunFloatOp("Conv", {x, w}, {{"group", int64_t{2}}}), {1, 2, 1, 1}, {3, 7});
}

TEST(ConvTest, AutoPadSameUpperAndLower) {
  const TensorData x = Floats({1, 1, 4}, {1, 2, 3, 4});
  const TensorData w = Floats({1, 1, 2}, {1, 10});
  // Total padding 1: SAME_UPPER puts it at the end, SAME_LOWER at the start.
  ExpectFloats(RunFloatOp("Conv", {x, w}, {{"auto_pad", std::string("SAME_UPPER")}}), {1, 1, 4},
               {21, 32, 43, 4});
  ExpectFloats(RunFloatOp("Conv", {x, w}, {{"auto_pad", std::string("SAME_LOWER")}}), {1, 1, 4},
               {10, 21, 32, 43});
  ExpectFloats(RunFloatOp("Conv", {x, w}, {{"auto_pad", std::string("VALID")}}), {1, 1, 3},
               {21, 32, 43});
}

TEST(ConvTest, ThreeDimensional) {
  const TensorData x = Floats({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  const TensorData w = Floats({1, 1, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1});
  ExpectFloats(RunFloatOp("Conv", {x, w}), {1, 1, 1, 1, 1}, {36});
}

TEST(ConvTest, MismatchedWeightsAreAnError) {
  const TensorData w = Floats({1, 2, 2, 2}, std::vector<float>(8, 1));
  auto result = testing_util::RunOp(testing_util::MakeNode("Conv"), {&kImage3x3, &w});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidModel);
  EXPECT_NE(result.status().message().find("Conv_test"), std::string::npos) << result.status().message();
}

// out[n][m][y][x] = b[m] + sum_{c,ky,kx} in[n][g*C/G + c][y*s - p + ky*d][x*s - p + kx*d] * w[m][c][ky][kx]
std::vector<float> NaiveConv(const std::vector<float>& in, const std::vector<float>& w,
                             const std::vector<float>& b, int64_t C, int64_t H, int64_t W,
                             int64_t M, int64_t K, int64_t stride, int64_t dil, int64_t pad,
                             int64_t groups, int64_t OH, int64_t OW) {
  std::vector<float> out(M * OH * OW);
  const int64_t cg = C / groups, mg = M / groups;
  for (int64_t m = 0; m < M; ++m)
    for (int64_t y = 0; y < OH; ++y)
      for (int64_t x = 0; x < OW; ++x) {
        double sum = b[m];
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t ky = 0; ky < K; ++ky)
            for (int64_t kx = 0; kx < K; ++kx) {
              const int64_t iy = y * stride - pad + ky * dil, ix = x * stride - pad + kx * dil;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
              sum += in[((m / mg) * cg + c) * H * W + iy * W + ix] * w[((m * cg + c) * K + ky) * K + kx];
            }
        out[(m * OH + y) * OW + x] = static_cast<float>(sum);
      }
  return out;
}

TEST(ConvTest, MatchesNaiveConvolutionOnOddShapes) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1, 1);
  struct Case { int64_t C, H, W, M, K, stride, dil, pad, groups; };
  const Case cases[] = {{3, 13, 13, 5, 3, 1, 1, 1, 1}, {6, 13, 11, 4, 3, 2, 1, 1, 2},
                        {5, 17, 9, 5, 3, 1, 2, 2, 5},  {2, 8, 13, 3, 5, 2, 1, 2, 1},
                        {4, 7, 7, 8, 1, 1, 1, 0, 4},   {3, 12, 12, 2, 7, 3, 1, 3, 1},
                        {2, 9, 16, 2, 3, 1, 3, 0, 1}};
  for (const Case& c : cases) {
    std::vector<float> in(c.C * c.H * c.W), w(c.M * (c.C / c.groups) * c.K * c.K), b(c.M);
    for (float& v : in) v = value(rng);
    for (float& v : w) v = value(rng);
    for (float& v : b) v = value(rng);
    const int64_t extent = (c.K - 1) * c.dil + 1;
    const int64_t OH = (c.H + 2 * c.pad - extent) / c.stride + 1;
    const int64_t OW = (c.W + 2 * c.pad - extent) / c.stride + 1;
    const TensorData y = RunFloatOp(
        "Conv",
        {Floats({1, c.C, c.H, c.W}, in), Floats({c.M, c.C / c.groups, c.K, c.K}, w), Floats({c.M}, b)},
        {{"pads", std::vector<int64_t>{c.pad, c.pad, c.pad, c.pad}},
         {"strides", std::vector<int64_t>{c.stride, c.stride}},
         {"dilations", std::vector<int64_t>{c.dil, c.dil}},
         {"group", c.groups}});
    SCOPED_TRACE("C " + std::to_string(c.C) + " K " + std::to_string(c.K) + " stride " +
                 std::to_string(c.stride) + " dil " + std::to_string(c.dil));
    ExpectFloats(y, {1, c.M, OH, OW},
                 NaiveConv(in, w, b, c.C, c.H, c.W, c.M, c.K, c.stride, c.dil, c.pad, c.groups, OH, OW),
                 1e-4f);
  }
}

TEST(ConvTransposeTest, StrideTwoSpreadsEachPixel) {
  const TensorData x = Floats({1, 1, 2, 2}, {1, 2, 3, 4});
  ExpectFloats(RunFloatOp("ConvTranspose", {x, kOnes2x2}, {{"strides", std::vector<int64_t>{2, 2}}}),
               {1, 1, 4, 4}, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

TEST(ConvTransposeTest, StrideOneOverlapsAndPadsCrop) {
  const TensorData x = Floats({1, 1, 2, 2}, {1, 2, 3, 4});
  ExpectFloats(RunFloatOp("ConvTranspose", {x, kOnes2x2}), {1, 1, 3, 3}, {1, 3, 2, 4, 10, 6, 3, 7, 4});
  ExpectFloats(RunFloatOp("ConvTranspose", {x, kOnes2x2}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}),
               {1, 1, 1, 1}, {10});
}

TEST(ConvTransposeTest, OutputPaddingAndBias) {
  const TensorData x = Floats({1, 1, 1, 1}, {2});
  // Output 2x2 from stride 2, kernel 1, plus one extra row and column.
  ExpectFloats(RunFloatOp("ConvTranspose", {x, Floats({1, 1, 1, 1}, {3}), Floats({1}, {1})},
                          {{"strides", std::vector<int64_t>{2, 2}},
                           {"output_padding", std::vector<int64_t>{1, 1}}}),
               {1, 1, 2, 2}, {7, 1, 1, 1});
}

}  // namespace
}  // namespace glpool
