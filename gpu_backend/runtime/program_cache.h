// Programs compiled once per kernel variant (the full assembled source) and
// reused by every task, and by every executor that shares the cache — e.g.
// when a user switches strategy, only bindings change, so nothing recompiles.
// Belongs to one GL context.
#pragma once

#include <map>
#include <string>

#include "gpu_backend/gl/gl_shader.h"

namespace glpool {

class ProgramCache {
 public:
  // The program for `source`, compiling and linking it on first use; `name`
  // (e.g. "shaders/conv.comp") appears in compile errors.
  StatusOr<const gl::GlProgram*> Get(const std::string& name, const std::string& source);
  size_t size() const { return programs_.size(); }

 private:
  std::map<std::string, gl::GlProgram> programs_;
};

}  // namespace glpool
