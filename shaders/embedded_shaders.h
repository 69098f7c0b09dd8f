// The compute shaders of shaders/*.comp, embedded at build time after glslang
// validated each one; nothing is read from disk at run time.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace glpool {

struct EmbeddedShader {
  const char* name;    // file name without ".comp"
  const char* source;  // starts with "#version 310 es"
};

const std::vector<EmbeddedShader>& EmbeddedShaders();

// The source of shaders/<name>.comp, or kNotFound naming the shader.
StatusOr<std::string> ShaderSource(const std::string& name);

}  // namespace glpool
