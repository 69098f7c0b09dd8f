#include "gpu_backend/gl/scoped_binding.h"

#include "gpu_backend/gl/gl_call.h"

namespace glpool::gl {
namespace {

GLenum BufferBindingQuery(GLenum target) {
  switch (target) {
    case GL_SHADER_STORAGE_BUFFER: return GL_SHADER_STORAGE_BUFFER_BINDING;
    case GL_UNIFORM_BUFFER: return GL_UNIFORM_BUFFER_BINDING;
    case GL_ARRAY_BUFFER: return GL_ARRAY_BUFFER_BINDING;
    default: return GL_SHADER_STORAGE_BUFFER_BINDING;
  }
}

GLenum TextureBindingQuery(GLenum target) {
  switch (target) {
    case GL_TEXTURE_2D_ARRAY: return GL_TEXTURE_BINDING_2D_ARRAY;
    case GL_TEXTURE_3D: return GL_TEXTURE_BINDING_3D;
    default: return GL_TEXTURE_BINDING_2D;
  }
}

Status Bind(GLenum query, GLint* previous, GLenum target, GLuint id, bool texture) {
  GLPOOL_GL_CALL(glGetIntegerv(query, previous));
  if (texture) {
    GLPOOL_GL_CALL(glBindTexture(target, id));
  } else {
    GLPOOL_GL_CALL(glBindBuffer(target, id));
  }
  return Status::Ok();
}

}  // namespace

ScopedBufferBinding::ScopedBufferBinding(GLenum target, GLuint buffer) : target_(target) {
  status_ = Bind(BufferBindingQuery(target), &previous_, target, buffer, false);
}

ScopedBufferBinding::~ScopedBufferBinding() {
  // A destructor cannot return a Status; a failed restore shows up at the
  // next checked call, which drains and reports the GL error flag.
  glBindBuffer(target_, static_cast<GLuint>(previous_));
}

ScopedTextureBinding::ScopedTextureBinding(GLenum target, GLuint texture) : target_(target) {
  status_ = Bind(TextureBindingQuery(target), &previous_, target, texture, true);
}

ScopedTextureBinding::~ScopedTextureBinding() { glBindTexture(target_, static_cast<GLuint>(previous_)); }

}  // namespace glpool::gl
