// Scoped binders: bind a GL object to a target for a scope, then restore
// whatever was bound before, so helpers never leak binding state.
#pragma once

#include <glad/gles2.h>

#include "common/status.h"

namespace glpool::gl {

class ScopedBufferBinding {
 public:
  ScopedBufferBinding(GLenum target, GLuint buffer);
  ~ScopedBufferBinding();
  ScopedBufferBinding(const ScopedBufferBinding&) = delete;
  ScopedBufferBinding& operator=(const ScopedBufferBinding&) = delete;
  // Whether binding succeeded; check before relying on the binding.
  const Status& status() const { return status_; }

 private:
  GLenum target_;
  GLint previous_ = 0;
  Status status_;
};

class ScopedTextureBinding {
 public:
  ScopedTextureBinding(GLenum target, GLuint texture);
  ~ScopedTextureBinding();
  ScopedTextureBinding(const ScopedTextureBinding&) = delete;
  ScopedTextureBinding& operator=(const ScopedTextureBinding&) = delete;
  const Status& status() const { return status_; }

 private:
  GLenum target_;
  GLint previous_ = 0;
  Status status_;
};

}  // namespace glpool::gl
