#include <gtest/gtest.h>

#include "gpu_backend/gl/embedded_program.h"
#include "gpu_backend/gl/gl_context.h"
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
    auto program = gl::ProgramFromEmbedded(shader.name);
    EXPECT_TRUE(program.ok()) << program.status().ToString();
  }
}

}  // namespace
}  // namespace glpool
