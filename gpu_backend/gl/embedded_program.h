// Builds a program from one of the shaders embedded at build time.
#pragma once

#include <string>

#include "gpu_backend/gl/gl_shader.h"

namespace glpool::gl {

// Compiles shaders/<name>.comp with `defines`; errors name "shaders/<name>.comp".
StatusOr<GlProgram> ProgramFromEmbedded(const std::string& name, const ShaderDefines& defines = {});

}  // namespace glpool::gl
