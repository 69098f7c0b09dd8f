// Programs compiled once per kernel variant (the full assembled source) and
// reused by every task, and by every executor that shares the cache — e.g.
// when a user switches strategy, only bindings change, so nothing recompiles.
// Belongs to one GL context.
//
// With a binary directory (SetBinaryDirectory), a program met for the first
// time is first looked up on disk: <dir>/<key>.glpb holds what
// glGetProgramBinary returned, keyed by a hash of the source and the
// context's GL_VENDOR, GL_RENDERER and GL_VERSION, so another driver or
// version never sees it. A missing, truncated, corrupt, mismatched or
// driver-rejected file is ignored and the program compiled (and stored)
// again; failing to write is not an error either — the cache only saves time.
#pragma once

#include <map>
#include <string>

#include "gpu_backend/gl/gl_shader.h"

namespace glpool {

class ProgramCache {
 public:
  // Reads the GL strings of the current context for the keys. An empty
  // `dir` turns the disk cache off.
  Status SetBinaryDirectory(const std::string& dir);

  // The program for `source`, compiling and linking it on first use; `name`
  // (e.g. "shaders/conv.comp") appears in compile errors.
  StatusOr<const gl::GlProgram*> Get(const std::string& name, const std::string& source);
  // Makes every program of `programs` (name, source) that is not made yet:
  // restored from the disk cache where it can be, else compiled, with every
  // compile and link asked of the driver before the first is waited for, so
  // a driver with GL_KHR_parallel_shader_compile runs them on its threads.
  // Get then finds them. The first failure is returned, in `programs` order.
  Status Prepare(const std::vector<std::pair<std::string, std::string>>& programs);
  size_t size() const { return programs_.size(); }

 private:
  struct DiskKey {
    std::string path;  // empty: no disk cache
    uint64_t check = 0;
  };
  DiskKey KeyOf(const std::string& source) const;
  StatusOr<gl::GlProgram> Restore(const std::string& name, const DiskKey& key) const;
  void Store(const DiskKey& key, const gl::GlProgram& program) const;
  bool parallel_compile_asked_ = false;
  std::map<std::string, gl::GlProgram> programs_;
  std::string binary_dir_;
  std::string driver_;  // vendor, renderer, version: part of every key
};

}  // namespace glpool
