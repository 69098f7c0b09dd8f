// A broken shader at run time yields an error naming the shader and carrying
// the compiler's log; nothing aborts.
#include <gtest/gtest.h>

#include "gpu_backend/gl/gl_context.h"
#include "gpu_backend/gl/gl_shader.h"

namespace glpool::gl {
namespace {

TEST(BrokenShaderTest, CompileErrorNamesShaderAndCarriesLog) {
  auto context = CreateHeadlessContext();
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  const std::string source =
      "#version 310 es\n"
      "layout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer Data { float values[]; } data;\n"
      "void main() { data.values[0] = undeclared_value; }\n";
  auto program = GlProgram::FromSource("tests/broken_on_purpose.comp", source);
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), StatusCode::kGlError);
  const std::string& message = program.status().message();
  EXPECT_NE(message.find("tests/broken_on_purpose.comp"), std::string::npos) << message;
  EXPECT_NE(message.find("undeclared_value"), std::string::npos) << "the compiler log is missing: " << message;
}

TEST(BrokenShaderTest, DefinesKeepLineNumbers) {
  const std::string with = WithDefines("#version 310 es\nline2\n", {{"A", "1"}, {"B", "rgba16f"}});
  EXPECT_EQ(with, "#version 310 es\n#define A 1\n#define B rgba16f\n#line 2\nline2\n");
}

}  // namespace
}  // namespace glpool::gl
