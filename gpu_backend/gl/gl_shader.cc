#include "gpu_backend/gl/gl_shader.h"

#include <algorithm>

#include "gpu_backend/gl/gl_counters.h"

#include "gpu_backend/gl/gl_call.h"

namespace glpool::gl {

std::string WithDefines(const std::string& source, const ShaderDefines& defines) {
  const size_t line_end = source.find('\n');
  const size_t split = line_end == std::string::npos ? source.size() : line_end + 1;
  std::string result = source.substr(0, split);
  if (line_end == std::string::npos) result += '\n';
  for (const auto& [name, value] : defines) result += "#define " + name + " " + value + "\n";
  // Keep the driver's line numbers matching the .comp file.
  result += "#line 2\n";
  result += source.substr(split);
  return result;
}

GlShader::~GlShader() { Release(); }
GlShader::GlShader(GlShader&& other) noexcept : id_(std::exchange(other.id_, 0)), name_(std::move(other.name_)) {}
GlShader& GlShader::operator=(GlShader&& other) noexcept {
  if (this != &other) {
    Release();
    id_ = std::exchange(other.id_, 0);
    name_ = std::move(other.name_);
  }
  return *this;
}
void GlShader::Release() {
  if (id_ != 0) {
    glDeleteShader(id_);
    CountGlObjectDeleted();
  }
  id_ = 0;
}

StatusOr<GlShader> GlShader::StartCompute(const std::string& name, const std::string& source) {
  GlShader shader;
  shader.name_ = name;
  GLPOOL_GL_CALL_RETURN(shader.id_, glCreateShader(GL_COMPUTE_SHADER));
  if (shader.id_ == 0) return GlError("glCreateShader(GL_COMPUTE_SHADER) returned 0 for " + name);
  CountGlObjectCreated();
  const char* text = source.c_str();
  GLPOOL_GL_CALL(glShaderSource(shader.id_, 1, &text, nullptr));
  CountShaderCompile();
  GLPOOL_GL_CALL(glCompileShader(shader.id_));
  return shader;
}

Status GlShader::CheckCompiled() const {
  GLint compiled = GL_FALSE;
  GLPOOL_GL_CALL(glGetShaderiv(id_, GL_COMPILE_STATUS, &compiled));
  if (InjectedFaultDue(GlFault::kShaderCompile)) {
    return GlError("compiling shader " + name_ + " failed: (a compile failure injected for testing)");
  }
  if (compiled != GL_TRUE) {
    GLint length = 0;
    GLPOOL_GL_CALL(glGetShaderiv(id_, GL_INFO_LOG_LENGTH, &length));
    std::string log(static_cast<size_t>(length > 0 ? length : 1), '\0');
    GLPOOL_GL_CALL(glGetShaderInfoLog(id_, static_cast<GLsizei>(log.size()), nullptr, log.data()));
    log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
    return GlError("compiling shader " + name_ + " failed:\n" + log);
  }
  return Status::Ok();
}

StatusOr<GlShader> GlShader::CompileCompute(const std::string& name, const std::string& source) {
  GLPOOL_ASSIGN_OR_RETURN(GlShader shader, StartCompute(name, source));
  GLPOOL_RETURN_IF_ERROR(shader.CheckCompiled());
  return shader;
}

GlProgram::~GlProgram() { Release(); }
GlProgram::GlProgram(GlProgram&& other) noexcept
    : id_(std::exchange(other.id_, 0)), name_(std::move(other.name_)) {}
GlProgram& GlProgram::operator=(GlProgram&& other) noexcept {
  if (this != &other) {
    Release();
    id_ = std::exchange(other.id_, 0);
    name_ = std::move(other.name_);
  }
  return *this;
}
void GlProgram::Release() {
  if (id_ != 0) {
    glDeleteProgram(id_);
    CountGlObjectDeleted();
  }
  id_ = 0;
}

StatusOr<GlProgram> GlProgram::StartLink(const GlShader& shader) {
  GlProgram program;
  program.name_ = shader.name();
  GLPOOL_GL_CALL_RETURN(program.id_, glCreateProgram());
  if (program.id_ == 0) return GlError("glCreateProgram returned 0 for " + shader.name());
  CountGlObjectCreated();
  GLPOOL_GL_CALL(glAttachShader(program.id_, shader.id()));
  GLPOOL_GL_CALL(glLinkProgram(program.id_));
  return program;
}

Status GlProgram::FinishLink(const GlShader& shader) {
  GLint linked = GL_FALSE;
  GLPOOL_GL_CALL(glGetProgramiv(id_, GL_LINK_STATUS, &linked));
  if (linked != GL_TRUE) {
    GLint length = 0;
    GLPOOL_GL_CALL(glGetProgramiv(id_, GL_INFO_LOG_LENGTH, &length));
    std::string log(static_cast<size_t>(length > 0 ? length : 1), '\0');
    GLPOOL_GL_CALL(glGetProgramInfoLog(id_, static_cast<GLsizei>(log.size()), nullptr, log.data()));
    return GlError("linking program " + shader.name() + " failed:\n" + log.c_str());
  }
  GLPOOL_GL_CALL(glDetachShader(id_, shader.id()));
  return Status::Ok();
}

StatusOr<GlProgram> GlProgram::Link(const GlShader& shader) {
  GLPOOL_ASSIGN_OR_RETURN(GlProgram program, StartLink(shader));
  GLPOOL_RETURN_IF_ERROR(program.FinishLink(shader));
  return program;
}

StatusOr<GlProgram> GlProgram::FromSource(const std::string& name, const std::string& source,
                                          const ShaderDefines& defines) {
  GLPOOL_ASSIGN_OR_RETURN(GlShader shader, GlShader::CompileCompute(name, WithDefines(source, defines)));
  return Link(shader);
}

StatusOr<GlProgram> GlProgram::FromBinary(const std::string& name, GLenum format, const std::vector<uint8_t>& binary) {
  GlProgram program;
  program.name_ = name;
  GLPOOL_GL_CALL_RETURN(program.id_, glCreateProgram());
  if (program.id_ == 0) return GlError("glCreateProgram returned 0 for " + name);
  CountGlObjectCreated();
  // A binary the driver rejects is not a GL error worth failing on: it
  // raises INVALID_ENUM or leaves the link status false; both mean "compile".
  glProgramBinary(program.id_, format, binary.data(), static_cast<GLsizei>(binary.size()));
  const GLenum error = glGetError();
  GLint linked = GL_FALSE;
  GLPOOL_GL_CALL(glGetProgramiv(program.id_, GL_LINK_STATUS, &linked));
  if (error != GL_NO_ERROR || linked != GL_TRUE) {
    return UnavailableError("the driver rejected the stored binary of " + name);
  }
  CountProgramBinaryLoad();
  return program;
}

StatusOr<std::vector<uint8_t>> GlProgram::Binary(GLenum* format) const {
  GLint length = 0;
  GLPOOL_GL_CALL(glGetProgramiv(id_, GL_PROGRAM_BINARY_LENGTH, &length));
  if (length <= 0) return UnavailableError("program " + name_ + " has no binary");
  std::vector<uint8_t> binary(static_cast<size_t>(length));
  GLsizei written = 0;
  GLPOOL_GL_CALL(glGetProgramBinary(id_, length, &written, format, binary.data()));
  binary.resize(static_cast<size_t>(written));
  return binary;
}

Status GlProgram::Use() const {
  GLPOOL_GL_CALL(glUseProgram(id_));
  return Status::Ok();
}

StatusOr<GLint> GlProgram::UniformLocation(const char* uniform) const {
  GLPOOL_GL_CALL_RETURN(GLint location, glGetUniformLocation(id_, uniform));
  if (location < 0) return InternalError("program " + name_ + " has no uniform '" + uniform + "'");
  return location;
}

Status GlProgram::SetInt(const char* uniform, GLint value) const {
  GLPOOL_ASSIGN_OR_RETURN(GLint location, UniformLocation(uniform));
  GLPOOL_GL_CALL(glProgramUniform1i(id_, location, value));
  return Status::Ok();
}

Status GlProgram::SetIvec4(const char* uniform, GLint x, GLint y, GLint z, GLint w) const {
  GLPOOL_ASSIGN_OR_RETURN(GLint location, UniformLocation(uniform));
  GLPOOL_GL_CALL(glProgramUniform4i(id_, location, x, y, z, w));
  return Status::Ok();
}

Status GlProgram::Dispatch(uint32_t groups_x, uint32_t groups_y, uint32_t groups_z) const {
  const uint32_t groups[3] = {groups_x, groups_y, groups_z};
  // An empty output (a zero-sized dimension) has nothing to compute.
  if (groups_x == 0 || groups_y == 0 || groups_z == 0) return Status::Ok();
  uint32_t limit[3] = {0, 0, 0};
  bool split = false;
  for (GLuint axis = 0; axis < 3; ++axis) {
    GLint value = 0;
    GLPOOL_GL_CALL(glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, axis, &value));
    if (value < 1) return GlError("GL_MAX_COMPUTE_WORK_GROUP_COUNT[" + std::to_string(axis) + "] is " + std::to_string(value));
    limit[axis] = static_cast<uint32_t>(value);
    split |= groups[axis] > limit[axis];
  }
  GLPOOL_GL_CALL(glUseProgram(id_));
  GLPOOL_GL_CALL_RETURN(const GLint base, glGetUniformLocation(id_, "glpool_group_base"));
  if (!split) {
    if (base >= 0) GLPOOL_GL_CALL(glProgramUniform3ui(id_, base, 0, 0, 0));
    GLPOOL_GL_CALL(glDispatchCompute(groups_x, groups_y, groups_z));
    return Status::Ok();
  }
  if (base < 0) {
    return InternalError("dispatching " + name_ + ": " + std::to_string(groups_x) + "x" + std::to_string(groups_y) +
                         "x" + std::to_string(groups_z) + " work groups exceed the device's limit and the shader " +
                         "has no glpool_group_base to run in parts");
  }
  // Parts in order; each part is a complete dispatch of its own, so no
  // barrier is needed between them (they write disjoint outputs).
  for (uint32_t z = 0; z < groups_z; z += std::min(limit[2], groups_z - z)) {
    for (uint32_t y = 0; y < groups_y; y += std::min(limit[1], groups_y - y)) {
      for (uint32_t x = 0; x < groups_x; x += std::min(limit[0], groups_x - x)) {
        GLPOOL_GL_CALL(glProgramUniform3ui(id_, base, x, y, z));
        GLPOOL_GL_CALL(glDispatchCompute(std::min(limit[0], groups_x - x), std::min(limit[1], groups_y - y),
                                         std::min(limit[2], groups_z - z)));
      }
    }
  }
  return Status::Ok();
}

}  // namespace glpool::gl
