// Compute-shader round trips through an SSBO and through immutable RGBA16F
// and RGBA32F textures (2D and 2D-array), on the headless EGL context and on
// a GLFW window (which needs an X display; scripts/test.sh starts Xvfb).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <memory>

#include "gpu_backend/gl/embedded_program.h"
#include "gpu_backend/gl/gl_buffer.h"
#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/gl/gl_sync.h"
#include "gpu_backend/gl/gl_texture.h"
#include "gpu_backend/gl/texture_transfer.h"

namespace glpool::gl {
namespace {

class RoundTripTest : public ::testing::TestWithParam<ContextKind> {
 protected:
  void SetUp() override {
    if (GetParam() == ContextKind::kWindow) {
      const char* display = std::getenv("DISPLAY");
      ASSERT_TRUE(display != nullptr && *display != '\0')
          << "window tests need an X display: run them through scripts/test.sh, which starts Xvfb";
    }
    auto context = CreateContext(GetParam(), WindowOptions{64, 64, "glpool test", false});
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    context_ = std::move(context).value();
  }
  std::unique_ptr<GlContext> context_;
};

// Values that survive fp16 exactly (small integers and halves) and some that don't.
std::vector<float> TestTexels(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i % 251) * 0.5f - 31.0f + 1.0f / 3.0f;
  return values;
}

TEST_P(RoundTripTest, BufferThroughComputeShader) {
  const int count = 1000;  // not a multiple of the work-group size
  std::vector<float> input(count);
  for (int i = 0; i < count; ++i) input[i] = static_cast<float>(i) * 0.25f;
  auto x = GlBuffer::CreateWithData(input.data(), input.size() * sizeof(float));
  auto y = GlBuffer::Create(count * sizeof(float));
  ASSERT_TRUE(x.ok() && y.ok());
  auto program = ProgramFromEmbedded("scale_bias_buffer");
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  ASSERT_TRUE(program->SetIvec4("u_count_scale_bias", count, 3, -7, 0).ok());
  ASSERT_TRUE(x->BindToIndex(0).ok());
  ASSERT_TRUE(y->BindToIndex(1).ok());
  ASSERT_TRUE(program->Dispatch((count + 63) / 64, 1, 1).ok());
  ASSERT_TRUE(glpool::gl::GlFence::Insert().ok());
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  auto output = y->ReadAll<float>();
  ASSERT_TRUE(output.ok()) << output.status().ToString();
  ASSERT_EQ(output->size(), static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) EXPECT_EQ((*output)[i], input[i] * 3.0f - 7.0f) << "at " << i;
}

struct TextureCase {
  TextureFormat format;
  uint32_t width, height, layers;  // layers == 0: a 2D texture
};

void CheckTextureRoundTrip(const TextureCase& c) {
  auto texture = c.layers == 0 ? GlTexture::Create2D(c.width, c.height, c.format)
                               : GlTexture::Create2DArray(c.width, c.height, c.layers, c.format);
  ASSERT_TRUE(texture.ok()) << texture.status().ToString();
  const size_t floats = size_t{c.width} * c.height * std::max(c.layers, 1u) * 4;
  std::vector<float> input = TestTexels(floats);
  ASSERT_TRUE(UploadTexture(*texture, input).ok());
  auto output = DownloadTexture(*texture);
  ASSERT_TRUE(output.ok()) << output.status().ToString();
  ASSERT_EQ(output->size(), floats);
  // fp16 keeps 11 significant bits; drivers may round or truncate, so allow
  // one unit in the last place: relative error at most 2^-10.
  const float relative = c.format == TextureFormat::kRgba16F ? 1.0f / 1024.0f : 0.0f;
  for (size_t i = 0; i < floats; ++i) {
    EXPECT_NEAR((*output)[i], input[i], std::fabs(input[i]) * relative) << "texel float " << i;
  }
}

TEST_P(RoundTripTest, Rgba32fTexture2D) { CheckTextureRoundTrip({TextureFormat::kRgba32F, 13, 7, 0}); }
TEST_P(RoundTripTest, Rgba16fTexture2D) { CheckTextureRoundTrip({TextureFormat::kRgba16F, 13, 7, 0}); }
TEST_P(RoundTripTest, Rgba32fTexture2DArray) { CheckTextureRoundTrip({TextureFormat::kRgba32F, 9, 5, 3}); }
TEST_P(RoundTripTest, Rgba16fTexture2DArray) { CheckTextureRoundTrip({TextureFormat::kRgba16F, 127, 1, 2}); }

TEST_P(RoundTripTest, Fp16StorageRoundsToHalfPrecision) {
  // 1 + 2^-12 is not representable in fp16: it must come back as 1, which
  // proves the texture really stores halves.
  auto texture = GlTexture::Create2D(1, 1, TextureFormat::kRgba16F);
  ASSERT_TRUE(texture.ok());
  ASSERT_TRUE(UploadTexture(*texture, {1.0f + 1.0f / 4096.0f, 2.0f, -3.0f, 0.5f}).ok());
  auto output = DownloadTexture(*texture);
  ASSERT_TRUE(output.ok());
  EXPECT_EQ((*output)[0], 1.0f);
  EXPECT_EQ((*output)[3], 0.5f);
}

// Uploads into RGBA16F round to the nearest half, ties to even, whatever
// the driver's own store conversion does (llvmpipe truncates toward zero):
// 1 + 3 * 2^-12 lies between the halves 1 and 1 + 2^-10, nearer the upper
// (truncation gives 1); 1 + 2^-11 is a tie that goes to the even 1;
// -(1 + 3 * 2^-12) must round away from zero too.
TEST_P(RoundTripTest, Fp16StorageRoundsToNearestEven) {
  auto texture = GlTexture::Create2D(1, 1, TextureFormat::kRgba16F);
  ASSERT_TRUE(texture.ok());
  const float third = 1.0f + 3.0f / 4096.0f;
  ASSERT_TRUE(UploadTexture(*texture, {third, 1.0f + 1.0f / 2048.0f, -third, 65519.0f}).ok());
  auto output = DownloadTexture(*texture);
  ASSERT_TRUE(output.ok());
  EXPECT_EQ((*output)[0], 1.0f + 1.0f / 1024.0f);
  EXPECT_EQ((*output)[1], 1.0f);
  EXPECT_EQ((*output)[2], -(1.0f + 1.0f / 1024.0f));
  EXPECT_EQ((*output)[3], 65504.0f);  // below 65520: the largest half, not infinity
}

TEST_P(RoundTripTest, MovedOwnersKeepOneGlName) {
  auto buffer = GlBuffer::Create(64);
  ASSERT_TRUE(buffer.ok());
  const GLuint id = buffer->id();
  GlBuffer moved = std::move(buffer).value();
  EXPECT_EQ(moved.id(), id);
  EXPECT_TRUE(glIsBuffer(id));
  { GlBuffer sink = std::move(moved); }
  EXPECT_FALSE(glIsBuffer(id)) << "the last owner must delete the buffer";
}

TEST_P(RoundTripTest, ZeroSizedObjectsAreRejected) {
  EXPECT_EQ(GlBuffer::Create(0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(GlTexture::Create2D(0, 4, TextureFormat::kRgba32F).status().code(), StatusCode::kInvalidArgument);
}

TEST_P(RoundTripTest, OversizedTextureIsAGlErrorNamingTheCall) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  auto texture = GlTexture::Create2D(static_cast<uint32_t>(max_size) + 1, 1, TextureFormat::kRgba32F);
  ASSERT_FALSE(texture.ok());
  EXPECT_NE(texture.status().message().find("glTexStorage2D"), std::string::npos) << texture.status().message();
  EXPECT_NE(texture.status().message().find("gl_texture.cc:"), std::string::npos) << texture.status().message();
}

INSTANTIATE_TEST_SUITE_P(Contexts, RoundTripTest, ::testing::Values(ContextKind::kHeadless, ContextKind::kWindow),
                         [](const auto& info) { return std::string(ContextKindName(info.param)); });

}  // namespace
}  // namespace glpool::gl
