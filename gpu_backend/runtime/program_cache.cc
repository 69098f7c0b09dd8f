#include "gpu_backend/runtime/program_cache.h"

#include <cstdlib>
#include <iostream>

namespace glpool {

StatusOr<const gl::GlProgram*> ProgramCache::Get(const std::string& name, const std::string& source) {
  auto it = programs_.find(source);
  if (it == programs_.end()) {
    // GLPOOL_DUMP_SHADERS=1 prints every assembled kernel once, for debugging.
    if (const char* dump = std::getenv("GLPOOL_DUMP_SHADERS"); dump != nullptr && *dump == '1') {
      std::cerr << "// ---- " << name << "\n" << source << "\n";
    }
    GLPOOL_ASSIGN_OR_RETURN(gl::GlShader shader, gl::GlShader::CompileCompute(name, source));
    GLPOOL_ASSIGN_OR_RETURN(gl::GlProgram program, gl::GlProgram::Link(shader));
    it = programs_.emplace(source, std::move(program)).first;
  }
  return &it->second;
}

}  // namespace glpool
