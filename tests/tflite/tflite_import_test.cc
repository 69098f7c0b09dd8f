// The .tflite reader on small networks built in memory: each op's meaning
// in TFLite's own NHWC terms (computed here, directly) against glpool's
// import run by the CPU reference, so weight permutation, SAME padding,
// axis renumbering, flatten order, fused activations and weight
// dequantization are all checked; and hostile files that must fail cleanly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/graph/float16.h"
#include "gpu_backend/import/tflite/tflite_import.h"
#include "tests/tflite/tflite_builder.h"

namespace glpool {
namespace {

using testing_tflite::TfliteBuilder;
namespace tfl = glpool_tflite;

std::vector<float> Values(size_t count, float phase) {
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = std::sin(0.37f * static_cast<float>(i) + phase);
  return v;
}

// NHWC <-> the IR's NCHW for a rank-4 tensor.
std::vector<float> Permute(const std::vector<float>& in, const Shape& s, bool to_nchw) {
  const int64_t n = s[0], h = s[1], w = s[2], c = s[3];
  std::vector<float> out(in.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t ch = 0; ch < c; ++ch) {
          const int64_t nhwc = ((b * h + y) * w + x) * c + ch, nchw = ((b * c + ch) * h + y) * w + x;
          if (to_nchw) out[nchw] = in[nhwc];
          else out[nhwc] = in[nchw];
        }
  return out;
}

// Imports `bytes` and runs the CPU reference on one NHWC input; returns the
// first output in TFLite's layout.
std::vector<float> RunTflite(const std::string& bytes, const Shape& input_shape, const std::vector<float>& input,
                             Shape* output_shape = nullptr) {
  auto graph = ImportTfliteModel(bytes, {}, "test.tflite");
  EXPECT_TRUE(graph.ok()) << graph.status().ToString();
  if (!graph.ok()) return {};
  const bool rank4 = input_shape.size() == 4;
  const Shape ir_shape = rank4 ? Shape{input_shape[0], input_shape[3], input_shape[1], input_shape[2]} : input_shape;
  auto outputs = cpu_reference::RunGraph(*graph, {{graph->inputs.at(0), TensorData::FromFloats(ir_shape, rank4 ? Permute(input, input_shape, true) : input)}});
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  if (!outputs.ok()) return {};
  const TensorData& out = outputs->at(graph->outputs.at(0));
  Shape s = out.shape;
  std::vector<float> values = out.ToFloats();
  if (s.size() == 4) {
    s = {s[0], s[2], s[3], s[1]};
    values = Permute(values, s, false);
  }
  if (output_shape) *output_shape = s;
  return values;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4f) << "element " << i;
}

// TFLite's convolution, written directly in NHWC with OHWI filters.
std::vector<float> ConvNhwc(const std::vector<float>& x, int h, int w, int c, const std::vector<float>& filter, int o,
                            int kh, int kw, int stride, int pad_top, int pad_left, int oh, int ow,
                            const std::vector<float>& bias, bool depthwise, int multiplier) {
  std::vector<float> y(oh * ow * o);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int oc = 0; oc < o; ++oc) {
        float sum = bias[oc];
        for (int ky = 0; ky < kh; ++ky)
          for (int kx = 0; kx < kw; ++kx) {
            const int iy = oy * stride + ky - pad_top, ix = ox * stride + kx - pad_left;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            if (depthwise) {
              sum += x[(iy * w + ix) * c + oc / multiplier] * filter[(ky * kw + kx) * o + oc];
            } else {
              for (int ic = 0; ic < c; ++ic) sum += x[(iy * w + ix) * c + ic] * filter[((oc * kh + ky) * kw + kx) * c + ic];
            }
          }
        y[(oy * ow + ox) * o + oc] = sum;
      }
  return y;
}

TEST(TfliteImport, Conv2dSameStride2WithBiasAndRelu6) {
  TfliteBuilder b;
  const std::vector<float> weights = Values(4 * 3 * 3 * 3, 0.1f), bias = {0.5f, -0.25f, 0.0f, 1.0f};
  const int x = b.Tensor("x", {1, 5, 6, 3});
  const int w = b.Floats("w", {4, 3, 3, 3}, weights);
  const int bi = b.Floats("b", {4}, bias);
  const int y = b.Tensor("y", {1, 3, 3, 4});
  auto options = tfl::CreateConv2DOptions(b.fbb(), tfl::Padding::SAME, 2, 2, tfl::ActivationFunctionType::RELU6);
  b.Op(3, {x, w, bi}, {y}, tfl::BuiltinOptions::Conv2DOptions, options.Union());
  const std::vector<float> input = Values(5 * 6 * 3, 0.3f);
  std::vector<float> want = ConvNhwc(input, 5, 6, 3, weights, 4, 3, 3, 2, 1, 0, 3, 3, bias, false, 1);
  for (float& v : want) v = std::min(std::max(v, 0.0f), 6.0f);
  Shape shape;
  ExpectNear(RunTflite(b.Finish({x}, {y}), {1, 5, 6, 3}, input, &shape), want);
  EXPECT_EQ(shape, (Shape{1, 3, 3, 4}));
}

TEST(TfliteImport, DepthwiseConvWithMultiplierValidPadding) {
  TfliteBuilder b;
  const std::vector<float> weights = Values(3 * 3 * 6, 0.7f), bias = Values(6, 2.0f);
  const int x = b.Tensor("x", {1, 5, 6, 3});
  const int w = b.Floats("w", {1, 3, 3, 6}, weights);
  const int bi = b.Floats("b", {6}, bias);
  const int y = b.Tensor("y", {1, 3, 4, 6});
  auto options = tfl::CreateDepthwiseConv2DOptions(b.fbb(), tfl::Padding::VALID, 1, 1, 2);
  b.Op(4, {x, w, bi}, {y}, tfl::BuiltinOptions::DepthwiseConv2DOptions, options.Union());
  const std::vector<float> input = Values(5 * 6 * 3, 1.3f);
  ExpectNear(RunTflite(b.Finish({x}, {y}), {1, 5, 6, 3}, input),
             ConvNhwc(input, 5, 6, 3, weights, 6, 3, 3, 1, 0, 0, 3, 4, bias, true, 2));
}

TEST(TfliteImport, ReshapeAndFullyConnectedFlattenInNhwcOrder) {
  TfliteBuilder b;
  const std::vector<float> weights = Values(5 * 24, 0.2f);
  const int x = b.Tensor("x", {1, 2, 3, 4});
  const int shape = b.Ints("shape", {1, 24});
  const int flat = b.Tensor("flat", {1, 24});
  const int w = b.Floats("w", {5, 24}, weights);
  const int y = b.Tensor("y", {1, 5});
  b.Op(22, {x, shape}, {flat});
  b.Op(9, {flat, w, -1}, {y});
  const std::vector<float> input = Values(24, 0.9f);
  std::vector<float> want(5, 0.0f);
  for (int o = 0; o < 5; ++o)
    for (int k = 0; k < 24; ++k) want[o] += weights[o * 24 + k] * input[k];
  ExpectNear(RunTflite(b.Finish({x}, {y}), {1, 2, 3, 4}, input), want);
}

TEST(TfliteImport, AddPerChannelConstantConcatChannelsAndMean) {
  TfliteBuilder b;
  const std::vector<float> offsets = {1.0f, -2.0f, 0.5f, 0.0f};
  const int x = b.Tensor("x", {1, 2, 3, 4});
  const int c = b.Floats("c", {4}, offsets);
  const int sum = b.Tensor("sum", {1, 2, 3, 4});
  const int cat = b.Tensor("cat", {1, 2, 3, 8});
  const int axes = b.Ints("axes", {1, 2});
  const int mean = b.Tensor("mean", {1, 8});
  auto add = tfl::CreateAddOptions(b.fbb(), tfl::ActivationFunctionType::RELU);
  b.Op(0, {x, c}, {sum}, tfl::BuiltinOptions::AddOptions, add.Union());
  auto concat = tfl::CreateConcatenationOptions(b.fbb(), -1);
  b.Op(2, {sum, x}, {cat}, tfl::BuiltinOptions::ConcatenationOptions, concat.Union());
  auto reducer = tfl::CreateReducerOptions(b.fbb(), false);
  b.Op(40, {cat, axes}, {mean}, tfl::BuiltinOptions::ReducerOptions, reducer.Union());
  const std::vector<float> input = Values(24, 0.4f);
  std::vector<float> want(8, 0.0f);
  for (int p = 0; p < 6; ++p)
    for (int ch = 0; ch < 4; ++ch) {
      want[ch] += std::max(input[p * 4 + ch] + offsets[ch], 0.0f) / 6.0f;
      want[4 + ch] += input[p * 4 + ch] / 6.0f;
    }
  ExpectNear(RunTflite(b.Finish({x}, {mean}), {1, 2, 3, 4}, input), want);
}

// A 1x1 convolution whose weights come as float16 behind DEQUANTIZE, or as
// int8 with per-channel scales and zero points: both expanded at import.
TEST(TfliteImport, Float16AndInt8PerChannelWeightsAreExpandedAtImport) {
  const std::vector<float> input = Values(2 * 2 * 3, 0.6f);
  const std::vector<float> zero_bias = {0.0f, 0.0f};
  {
    TfliteBuilder b;
    const std::vector<float> weights = {0.5f, -1.25f, 2.0f, 0.125f, 3.0f, -0.75f};  // exact in half
    std::vector<uint8_t> halves(weights.size() * 2);
    for (size_t i = 0; i < weights.size(); ++i) {
      const uint16_t h = FloatToHalf(weights[i]);
      std::memcpy(&halves[i * 2], &h, 2);
    }
    const int x = b.Tensor("x", {1, 2, 2, 3});
    const int w16 = b.Tensor("w16", {2, 1, 1, 3}, tfl::TensorType::FLOAT16, halves);
    const int w = b.Tensor("w", {2, 1, 1, 3});
    const int y = b.Tensor("y", {1, 2, 2, 2});
    b.Op(6, {w16}, {w});
    auto options = tfl::CreateConv2DOptions(b.fbb(), tfl::Padding::VALID, 1, 1);
    b.Op(3, {x, w, -1}, {y}, tfl::BuiltinOptions::Conv2DOptions, options.Union());
    ExpectNear(RunTflite(b.Finish({x}, {y}), {1, 2, 2, 3}, input),
               ConvNhwc(input, 2, 2, 3, weights, 2, 1, 1, 1, 0, 0, 2, 2, zero_bias, false, 1));
  }
  {
    TfliteBuilder b;
    const std::vector<int8_t> q = {10, -20, 30, 127, -128, 5};
    const std::vector<float> scales = {0.5f, 0.25f};
    const std::vector<int64_t> zeros = {2, -3};
    std::vector<float> weights(6);
    for (int i = 0; i < 6; ++i) weights[i] = scales[i / 3] * static_cast<float>(q[i] - zeros[i / 3]);
    auto quant = tfl::CreateQuantizationParameters(b.fbb(), 0, 0, b.fbb().CreateVector(scales),
                                                   b.fbb().CreateVector(zeros), 0, 0);
    const int x = b.Tensor("x", {1, 2, 2, 3});
    const int w = b.Tensor("w", {2, 1, 1, 3}, tfl::TensorType::INT8, std::vector<uint8_t>(q.begin(), q.end()), quant);
    const int y = b.Tensor("y", {1, 2, 2, 2});
    auto options = tfl::CreateConv2DOptions(b.fbb(), tfl::Padding::VALID, 1, 1);
    b.Op(3, {x, w, -1}, {y}, tfl::BuiltinOptions::Conv2DOptions, options.Union());
    ExpectNear(RunTflite(b.Finish({x}, {y}), {1, 2, 2, 3}, input),
               ConvNhwc(input, 2, 2, 3, weights, 2, 1, 1, 1, 0, 0, 2, 2, zero_bias, false, 1));
  }
}

// MediaPipe's Convolution2DTransposeBias against the transposed convolution
// written out directly: y[oy,ox,o] = b[o] + sum x[iy,ix,i] w[o,ky,kx,i] over
// oy = iy*s + ky - pad_top, with SAME's padding.
TEST(TfliteImport, MediaPipeTransposeConvBias) {
  TfliteBuilder b;
  const int h = 3, w = 4, c = 2, o = 3, k = 4, s = 2;
  const std::vector<float> weights = Values(o * k * k * c, 0.8f), bias = {0.1f, -0.2f, 0.3f};
  const int x = b.Tensor("x", {1, h, w, c});
  const int wt = b.Floats("w", {o, k, k, c}, weights);
  const int bi = b.Floats("b", {o}, bias);
  const int y = b.Tensor("y", {1, h * s, w * s, o});
  const int32_t params[3] = {1, s, s};  // SAME, stride_w, stride_h
  std::vector<uint8_t> custom(sizeof(params));
  std::memcpy(custom.data(), params, sizeof(params));
  b.Op(32, {x, wt, bi}, {y}, tfl::BuiltinOptions::NONE, 0, "Convolution2DTransposeBias", custom);
  const std::vector<float> input = Values(h * w * c, 0.5f);
  const int oh = h * s, ow = w * s;
  const int pad = ((h - 1) * s + k - oh) / 2;  // 1 (the same along both dims here)
  std::vector<float> want(oh * ow * o);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int oc = 0; oc < o; ++oc) want[(oy * ow + ox) * o + oc] = bias[oc];
  for (int iy = 0; iy < h; ++iy)
    for (int ix = 0; ix < w; ++ix)
      for (int ky = 0; ky < k; ++ky)
        for (int kx = 0; kx < k; ++kx) {
          const int oy = iy * s + ky - pad, ox = ix * s + kx - pad;
          if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
          for (int oc = 0; oc < o; ++oc)
            for (int ic = 0; ic < c; ++ic)
              want[(oy * ow + ox) * o + oc] += input[(iy * w + ix) * c + ic] * weights[((oc * k + ky) * k + kx) * c + ic];
        }
  ExpectNear(RunTflite(b.Finish({x}, {y}), {1, h, w, c}, input), want);
}

std::string SmallConvModel() {
  TfliteBuilder b;
  const int x = b.Tensor("x", {1, 4, 4, 2});
  const int w = b.Floats("w", {3, 1, 1, 2}, Values(6, 0.0f));
  const int y = b.Tensor("y", {1, 4, 4, 3});
  auto options = tfl::CreateConv2DOptions(b.fbb(), tfl::Padding::VALID, 1, 1);
  b.Op(3, {x, w, -1}, {y}, tfl::BuiltinOptions::Conv2DOptions, options.Union());
  return b.Finish({x}, {y});
}

TEST(TfliteImport, TruncatedOrCorruptFilesFailWithTheFileName) {
  const std::string whole = SmallConvModel();
  ASSERT_TRUE(ImportTfliteModel(whole, {}, "m.tflite").ok());
  for (size_t cut = 0; cut < whole.size(); cut += 7) {
    auto graph = ImportTfliteModel(whole.substr(0, cut), {}, "m.tflite");
    ASSERT_FALSE(graph.ok()) << "cut at " << cut;
    EXPECT_NE(graph.status().message().find("m.tflite"), std::string::npos) << graph.status().message();
  }
  // Every single-byte change either imports or fails with a Status.
  for (size_t i = 0; i < whole.size(); ++i) {
    std::string flipped = whole;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
    (void)ImportTfliteModel(flipped, {}, "m.tflite");
  }
}

TEST(TfliteImport, BadIndicesAndSizesAreNamed) {
  {
    TfliteBuilder b;  // an op that reads a tensor no op has written yet
    const int x = b.Tensor("x", {1, 2});
    const int later = b.Tensor("later", {1, 2});
    const int y = b.Tensor("y", {1, 2});
    b.Op(19, {later}, {y});
    b.Op(19, {x}, {later});
    auto graph = ImportTfliteModel(b.Finish({x}, {y}), {}, "order.tflite");
    ASSERT_FALSE(graph.ok());
    EXPECT_NE(graph.status().message().find("op 0 (RELU): reads tensor 'later' before"), std::string::npos)
        << graph.status().message();
  }
  {
    TfliteBuilder b;  // a weight whose buffer is too short
    const int x = b.Tensor("x", {1, 4, 4, 2});
    const int w = b.Floats("w", {3, 1, 1, 2}, Values(5, 0.0f));
    const int y = b.Tensor("y", {1, 4, 4, 3});
    b.Op(3, {x, w, -1}, {y});
    auto graph = ImportTfliteModel(b.Finish({x}, {y}), {}, "short.tflite");
    ASSERT_FALSE(graph.ok());
    EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
    EXPECT_NE(graph.status().message().find("tensor 'w'"), std::string::npos) << graph.status().message();
  }
  {
    TfliteBuilder b;  // an op naming a tensor index past the end
    const int x = b.Tensor("x", {1, 2});
    const int y = b.Tensor("y", {1, 2});
    b.Op(19, {x + 40}, {y});
    auto graph = ImportTfliteModel(b.Finish({x}, {y}), {}, "index.tflite");
    ASSERT_FALSE(graph.ok());
    EXPECT_NE(graph.status().message().find("names tensor 40"), std::string::npos) << graph.status().message();
  }
  {
    TfliteBuilder b;  // a file whose stated output shape is not what the op makes
    const int x = b.Tensor("x", {1, 4, 4, 2});
    const int y = b.Tensor("y", {1, 4, 4, 5});
    b.Op(19, {x}, {y});
    auto graph = ImportTfliteModel(b.Finish({x}, {y}), {}, "shape.tflite");
    ASSERT_FALSE(graph.ok());
    EXPECT_NE(graph.status().message().find("tensor 'y'"), std::string::npos) << graph.status().message();
  }
}

TEST(TfliteImport, QuantizedActivationsAreRefusedWithAClearMessage) {
  TfliteBuilder b;
  std::vector<float> scale = {0.1f};
  std::vector<int64_t> zero = {0};
  auto quant = tfl::CreateQuantizationParameters(b.fbb(), 0, 0, b.fbb().CreateVector(scale), b.fbb().CreateVector(zero));
  const int x = b.Tensor("image", {1, 4, 4, 3}, tfl::TensorType::INT8, {}, quant);
  const int y = b.Tensor("y", {1, 4, 4, 3});
  b.Op(6, {x}, {y});
  auto graph = ImportTfliteModel(b.Finish({x}, {y}), {}, "q.tflite");
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(graph.status().message().find("input 'image' is a quantized int8 activation"), std::string::npos)
      << graph.status().message();
}

TEST(TfliteImport, NotATfliteFile) {
  auto graph = ImportTfliteModel("this is not a flatbuffer at all", {}, "text.tflite");
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_NE(graph.status().message().find("text.tflite: not a TensorFlow Lite model"), std::string::npos)
      << graph.status().message();
  EXPECT_EQ(LoadTfliteModel("/nonexistent/model.tflite").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace glpool
