#include "shaders/embedded_shaders.h"

namespace glpool {

StatusOr<std::string> ShaderSource(const std::string& name) {
  for (const EmbeddedShader& shader : EmbeddedShaders()) {
    if (name == shader.name) return std::string(shader.source);
  }
  return NotFoundError("no embedded shader named '" + name + "' (shaders/" + name + ".comp)");
}

}  // namespace glpool
