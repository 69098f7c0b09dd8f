// GlShader and GlProgram: a compiled compute shader and its linked program.
//
// Compile-time constants reach a shader as `#define`s inserted right after
// its `#version` line. A compile or link failure returns a Status naming the
// shader and carrying the driver's log.
#pragma once

#include <glad/gles2.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace glpool::gl {

using ShaderDefines = std::vector<std::pair<std::string, std::string>>;

// Inserts "#define NAME VALUE" lines after the first line (the #version).
std::string WithDefines(const std::string& source, const ShaderDefines& defines);

class GlShader {
 public:
  GlShader() = default;
  ~GlShader();
  GlShader(GlShader&& other) noexcept;
  GlShader& operator=(GlShader&& other) noexcept;
  GlShader(const GlShader&) = delete;
  GlShader& operator=(const GlShader&) = delete;

  // `name` appears in errors, e.g. "shaders/conv.comp".
  static StatusOr<GlShader> CompileCompute(const std::string& name, const std::string& source);
  // The two halves of CompileCompute: StartCompute asks the driver to compile
  // and does not wait; CheckCompiled waits and reports a failure with the
  // driver's log. Starting many before checking any lets a driver compile
  // them in parallel (GL_KHR_parallel_shader_compile).
  static StatusOr<GlShader> StartCompute(const std::string& name, const std::string& source);
  Status CheckCompiled() const;

  GLuint id() const { return id_; }
  const std::string& name() const { return name_; }

 private:
  void Release();
  GLuint id_ = 0;
  std::string name_;
};

class GlProgram {
 public:
  GlProgram() = default;
  ~GlProgram();
  GlProgram(GlProgram&& other) noexcept;
  GlProgram& operator=(GlProgram&& other) noexcept;
  GlProgram(const GlProgram&) = delete;
  GlProgram& operator=(const GlProgram&) = delete;

  static StatusOr<GlProgram> Link(const GlShader& shader);
  // Link's halves, as for GlShader: StartLink does not wait for the link,
  // FinishLink (with the same shader) does and detaches it.
  static StatusOr<GlProgram> StartLink(const GlShader& shader);
  Status FinishLink(const GlShader& shader);
  // Compiles and links `source` (with defines) in one step.
  static StatusOr<GlProgram> FromSource(const std::string& name, const std::string& source,
                                        const ShaderDefines& defines = {});

  // A program restored from glGetProgramBinary output; kUnavailable when
  // the driver rejects it (another driver, a corrupt file): compile instead.
  static StatusOr<GlProgram> FromBinary(const std::string& name, GLenum format, const std::vector<uint8_t>& binary);
  StatusOr<std::vector<uint8_t>> Binary(GLenum* format) const;

  GLuint id() const { return id_; }
  const std::string& name() const { return name_; }

  Status Use() const;
  // Sets a uniform by name; a name the program lacks is an internal error.
  Status SetInt(const char* uniform, GLint value) const;
  Status SetIvec4(const char* uniform, GLint x, GLint y, GLint z, GLint w) const;
  // glDispatchCompute over groups_x * groups_y * groups_z work groups. A
  // count of 0 dispatches nothing (an empty output). Counts past the
  // context's per-axis limit run as several dispatches, each telling the
  // shader its first group through the `glpool_group_base` uniform that
  // assembled kernels declare (shader_assembly.h); a program without it is
  // an internal error then.
  Status Dispatch(uint32_t groups_x, uint32_t groups_y, uint32_t groups_z) const;

 private:
  StatusOr<GLint> UniformLocation(const char* uniform) const;
  void Release();
  GLuint id_ = 0;
  std::string name_;
};

}  // namespace glpool::gl
