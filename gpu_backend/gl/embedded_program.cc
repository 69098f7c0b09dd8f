#include "gpu_backend/gl/embedded_program.h"

#include "shaders/embedded_shaders.h"

namespace glpool::gl {

StatusOr<GlProgram> ProgramFromEmbedded(const std::string& name, const ShaderDefines& defines) {
  GLPOOL_ASSIGN_OR_RETURN(std::string source, ShaderSource(name));
  return GlProgram::FromSource("shaders/" + name + ".comp", source, defines);
}

}  // namespace glpool::gl
