#include <gtest/gtest.h>

#include "gpu_backend/gl/embedded_program.h"
#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/runtime/shader_assembly.h"
#include "shaders/embedded_shaders.h"

namespace glpool {
namespace {

TEST(EmbeddedShadersTest, EveryShaderIsEmbeddedWithItsVersionLine) {
  ASSERT_FALSE(EmbeddedShaders().empty());
  for (const EmbeddedShader& shader : EmbeddedShaders()) {
    EXPECT_EQ(std::string(shader.source).rfind("#version 310 es\n", 0), 0u) << shader.name;
  }
  EXPECT_TRUE(ShaderSource("buffer_to_texture").ok());
}

TEST(EmbeddedShadersTest, UnknownShaderIsNotFound) {
  auto source = ShaderSource("no_such_kernel");
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kNotFound);
  EXPECT_NE(source.status().message().find("no_such_kernel"), std::string::npos);
}

TEST(EmbeddedShadersTest, EveryEmbeddedShaderCompilesOnTheContext) {
  auto context = gl::CreateHeadlessContext();
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  for (const EmbeddedShader& shader : EmbeddedShaders()) {
    const std::string source = shader.source;
    if (source.find("// glpool-tensors:") == std::string::npos) {
      auto program = gl::ProgramFromEmbedded(shader.name);
      EXPECT_TRUE(program.ok()) << program.status().ToString();
      continue;
    }
    // Kernels compile as the runtime assembles them, in each storage kind.
    for (StorageKind storage : {StorageKind::kBuffer, StorageKind::kTexture2D}) {
      for (bool fp16 : {false, true}) {
        auto assembled = AssembleRepresentative(shader.name, source, storage, fp16);
        ASSERT_TRUE(assembled.ok()) << assembled.status().ToString();
        auto program = gl::GlProgram::FromSource(std::string("shaders/") + shader.name + ".comp", *assembled);
        EXPECT_TRUE(program.ok()) << program.status().ToString();
      }
    }
  }
}

}  // namespace
}  // namespace glpool
