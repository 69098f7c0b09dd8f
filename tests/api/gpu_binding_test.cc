// (a) An app's own context, input texture and output buffer: outputs
// bit-identical to the CPU-tensor path, and no read of GL memory into CPU
// memory by glpool during Run (GetRuntimeCounters().gpu_reads).
#include <gtest/gtest.h>

#include "api_test_util.h"
#include "app_context.h"

namespace glpool::testing_util {
namespace {

class GpuBindingTest : public ::testing::TestWithParam<ObjectKind> {};

// NCHW (C <= 4) -> RGBA texels, row by row.
std::vector<float> ToRgba(const TensorData& tensor) {
  const std::vector<float> x = tensor.ToFloats();
  const int64_t c = tensor.shape[1], h = tensor.shape[2], w = tensor.shape[3];
  std::vector<float> rgba(static_cast<size_t>(h * w * 4), 0.0f);
  for (int64_t k = 0; k < c; ++k) {
    for (int64_t i = 0; i < h * w; ++i) rgba[static_cast<size_t>(i * 4 + k)] = x[static_cast<size_t>(k * h * w + i)];
  }
  return rgba;
}

TEST_P(GpuBindingTest, AppTextureInAndAppBufferOutMatchCpuTensorsBitForBitWithoutReadback) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(SharedModelPath("squeezenet1_1"));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  SessionOptions options;
  options.objects = GetParam();
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const TensorInfo input = (*session)->inputs().at(0), output = (*session)->outputs().at(0);
  const Shape in_shape = input.shape(), out_shape = output.shape();
  const TensorData x = RandomFloats(in_shape, 11);

  const RuntimeCounters before_cpu = GetRuntimeCounters();
  StatusOr<std::map<std::string, TensorData>> cpu_path = (*session)->Run({{input.name, x}});
  ASSERT_TRUE(cpu_path.ok()) << cpu_path.status().ToString();
  // The counter sees the CPU-tensor path's readback, so zero below means something.
  EXPECT_GT(GetRuntimeCounters().gpu_reads, before_cpu.gpu_reads);

  AppTexture texture(GL_RGBA32F, static_cast<int>(in_shape[3]), static_cast<int>(in_shape[2]));
  texture.Upload(GL_RGBA, GL_FLOAT, ToRgba(x).data());
  const size_t out_count = static_cast<size_t>(ElementCount(out_shape));
  AppBuffer out(out_count * sizeof(float));
  ASSERT_TRUE((*session)->BindInput(input.name, {texture.id(), GpuLayout::kRgba32fTexture}).ok());
  ASSERT_TRUE((*session)->BindOutput(output.name, {out.id(), GpuLayout::kNchwBuffer}).ok());
  const RuntimeCounters before_gpu = GetRuntimeCounters();
  StatusOr<std::map<std::string, TensorData>> gpu_path = (*session)->Run();
  const RuntimeCounters after_gpu = GetRuntimeCounters();
  ASSERT_TRUE(gpu_path.ok()) << gpu_path.status().ToString();
  EXPECT_TRUE(gpu_path->empty()) << "a bound output must not come back as a CPU tensor";
  EXPECT_EQ(after_gpu.gpu_reads, before_gpu.gpu_reads) << "Run read GL memory back to the CPU";

  const TensorData from_buffer = TensorData::FromFloats(out_shape, out.ReadFloats(out_count));
  EXPECT_TRUE(BitIdentical(from_buffer, cpu_path->at(output.name)))
      << "max difference " << MaxAbsDifference(from_buffer, cpu_path->at(output.name));
}

INSTANTIATE_TEST_SUITE_P(ObjectKinds, GpuBindingTest,
                         ::testing::Values(ObjectKind::kBuffers, ObjectKind::kTextures, ObjectKind::kArena),
                         [](const ::testing::TestParamInfo<ObjectKind>& info) {
                           return std::string(ObjectKindName(info.param));
                         });

// PHWC4 texel index of logical (c, h, w) for batch 1.
size_t Phwc4Index(const Phwc4Layout& l, int64_t c, int64_t h, int64_t w) {
  return static_cast<size_t>((((c / 4) * l.rows() + h) * l.w + w) * 4 + c % 4);
}

// WriteSymbolicConvModel's session with its image at [1, 3, 13, 18].
StatusOr<std::unique_ptr<Session>> SymbolicConvSession() {
  StatusOr<Model> model = Model::Load(WriteSymbolicConvModel());
  if (!model.ok()) return model.status();
  SessionOptions options;
  options.input_shapes = {{"image", {1, 3, 13, 18}}};
  return Session::Create(*model, options);
}

TEST(GpuBindingLayouts, Phwc4ZeroCopyAndNhwcBuffersMatchCpuTensors) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<std::unique_ptr<Session>> session = SymbolicConvSession();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const Shape in_shape = {1, 3, 13, 18}, out_shape = (*session)->outputs().at(0).shape();
  const TensorData x = RandomFloats(in_shape, 5);
  StatusOr<std::map<std::string, TensorData>> cpu_path = (*session)->Run({{"image", x}});
  ASSERT_TRUE(cpu_path.ok()) << cpu_path.status().ToString();

  // Input NHWC, output PHWC4 (zero-copy: the app's buffer is the output's object).
  const std::vector<float> nchw = x.ToFloats();
  std::vector<float> nhwc(nchw.size());
  for (int64_t c = 0; c < 3; ++c) {
    for (int64_t i = 0; i < 13 * 18; ++i) nhwc[static_cast<size_t>(i * 3 + c)] = nchw[static_cast<size_t>(c * 13 * 18 + i)];
  }
  AppBuffer in(nhwc.size() * sizeof(float), nhwc.data());
  const Phwc4Layout layout = LayoutOf(out_shape);
  AppBuffer out(static_cast<size_t>(layout.texels()) * 16);
  ASSERT_TRUE((*session)->BindInput("image", {in.id(), GpuLayout::kNhwcBuffer}).ok());
  ASSERT_TRUE((*session)->BindOutput("mask", {out.id(), GpuLayout::kPhwc4Buffer}).ok());
  const uint64_t reads = GetRuntimeCounters().gpu_reads;
  StatusOr<std::map<std::string, TensorData>> gpu_path = (*session)->Run();
  ASSERT_TRUE(gpu_path.ok()) << gpu_path.status().ToString();
  EXPECT_EQ(GetRuntimeCounters().gpu_reads, reads);

  const std::vector<float> texels = out.ReadFloats(static_cast<size_t>(layout.texels()) * 4);
  std::vector<float> logical(static_cast<size_t>(ElementCount(out_shape)));
  for (int64_t c = 0; c < layout.c; ++c) {
    for (int64_t h = 0; h < layout.h; ++h) {
      for (int64_t w = 0; w < layout.w; ++w) {
        logical[static_cast<size_t>((c * layout.h + h) * layout.w + w)] = texels[Phwc4Index(layout, c, h, w)];
      }
    }
  }
  const TensorData from_buffer = TensorData::FromFloats(out_shape, logical);
  EXPECT_TRUE(BitIdentical(from_buffer, cpu_path->at("mask")))
      << "max difference " << MaxAbsDifference(from_buffer, cpu_path->at("mask"));
}

// PHWC4 input buffers are read in place (zero copy): the conv reads the
// app's buffer through a texture-buffer view of its own, and a second
// buffer bound later is read in its turn, each run equal to the CPU-tensor
// path bit for bit.
TEST(GpuBindingLayouts, Phwc4ZeroCopyInputsAreReadInPlace) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<std::unique_ptr<Session>> session = SymbolicConvSession();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const Shape in_shape = {1, 3, 13, 18};
  const Phwc4Layout layout = LayoutOf(in_shape);
  for (uint32_t seed : {5u, 6u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const TensorData x = RandomFloats(in_shape, seed);
    StatusOr<std::map<std::string, TensorData>> cpu_path = (*session)->Run({{"image", x}});
    ASSERT_TRUE(cpu_path.ok()) << cpu_path.status().ToString();
    // The session's own input buffer now holds other values: only the
    // app's buffer can give x's result.
    ASSERT_TRUE((*session)->Run({{"image", RandomFloats(in_shape, seed + 10)}}).ok());
    const std::vector<float> nchw = x.ToFloats();
    std::vector<float> texels(static_cast<size_t>(layout.texels()) * 4, 0.0f);
    for (int64_t c = 0; c < layout.c; ++c) {
      for (int64_t h = 0; h < layout.h; ++h) {
        for (int64_t w = 0; w < layout.w; ++w) {
          texels[Phwc4Index(layout, c, h, w)] = nchw[static_cast<size_t>((c * layout.h + h) * layout.w + w)];
        }
      }
    }
    AppBuffer in(texels.size() * sizeof(float), texels.data());
    ASSERT_TRUE((*session)->BindInput("image", {in.id(), GpuLayout::kPhwc4Buffer}).ok());
    StatusOr<std::map<std::string, TensorData>> gpu_path = (*session)->Run();
    ASSERT_TRUE(gpu_path.ok()) << gpu_path.status().ToString();
    EXPECT_TRUE(BitIdentical(gpu_path->at("mask"), cpu_path->at("mask")))
        << "max difference " << MaxAbsDifference(gpu_path->at("mask"), cpu_path->at("mask"));
    (*session)->UnbindAll();
  }
}

// A mask texture out: the output written into the app's RGBA32F texture
// (channel c in component c) equals the CPU-tensor path bit for bit.
TEST(GpuBindingLayouts, Rgba32fTextureOutputMatchesCpuTensors) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteFourChannelModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  SessionOptions options;
  options.objects = ObjectKind::kTextures;
  options.input_shapes = {{"image", {1, 3, 11, 14}}};
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const TensorData x = RandomFloats({1, 3, 11, 14}, 9);
  StatusOr<std::map<std::string, TensorData>> cpu_path = (*session)->Run({{"image", x}});
  ASSERT_TRUE(cpu_path.ok()) << cpu_path.status().ToString();

  AppTexture mask(GL_RGBA32F, 14, 11);
  ASSERT_TRUE((*session)->BindOutput("rgba", {mask.id(), GpuLayout::kRgba32fTexture}).ok());
  const uint64_t reads = GetRuntimeCounters().gpu_reads;
  StatusOr<std::map<std::string, TensorData>> gpu_path = (*session)->Run({{"image", x}});
  ASSERT_TRUE(gpu_path.ok()) << gpu_path.status().ToString();
  EXPECT_EQ(GetRuntimeCounters().gpu_reads, reads);
  EXPECT_EQ(gpu_path->count("rgba"), 0u);

  // Texel (w, h) of the texture holds the four channels at (h, w).
  const std::vector<float> rgba = mask.ReadRgbaFloats();
  std::vector<float> nchw(rgba.size());
  for (int64_t c = 0; c < 4; ++c) {
    for (int64_t i = 0; i < 11 * 14; ++i) nchw[static_cast<size_t>(c * 11 * 14 + i)] = rgba[static_cast<size_t>(i * 4 + c)];
  }
  const TensorData from_texture = TensorData::FromFloats({1, 4, 11, 14}, nchw);
  EXPECT_TRUE(BitIdentical(from_texture, cpu_path->at("rgba")))
      << "max difference " << MaxAbsDifference(from_texture, cpu_path->at("rgba"));
}

}  // namespace
}  // namespace glpool::testing_util
