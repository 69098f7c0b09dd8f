#include "gpu_backend/runtime/program_cache.h"

namespace glpool {

StatusOr<const gl::GlProgram*> ProgramCache::Get(const std::string& name, const std::string& source) {
  auto it = programs_.find(source);
  if (it == programs_.end()) {
    GLPOOL_ASSIGN_OR_RETURN(gl::GlShader shader, gl::GlShader::CompileCompute(name, source));
    GLPOOL_ASSIGN_OR_RETURN(gl::GlProgram program, gl::GlProgram::Link(shader));
    it = programs_.emplace(source, std::move(program)).first;
  }
  return &it->second;
}

}  // namespace glpool
