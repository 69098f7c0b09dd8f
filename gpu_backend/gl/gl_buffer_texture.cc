#include "gpu_backend/gl/gl_buffer_texture.h"

#include <utility>

#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/gl_counters.h"

namespace glpool::gl {

GlBufferTexture::~GlBufferTexture() { Release(); }

GlBufferTexture::GlBufferTexture(GlBufferTexture&& other) noexcept
    : buffer_(std::move(other.buffer_)), id_(std::exchange(other.id_, 0)) {}

GlBufferTexture& GlBufferTexture::operator=(GlBufferTexture&& other) noexcept {
  if (this != &other) {
    Release();
    buffer_ = std::move(other.buffer_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void GlBufferTexture::Release() {
  // The texture goes first: it refers to the buffer.
  if (id_ != 0) {
    glDeleteTextures(1, &id_);
    CountGlObjectDeleted();
  }
  id_ = 0;
}

bool GlBufferTexture::Supported(std::string* directive) {
  // A GLSL ES 3.10 shader names samplerBuffer only through an extension,
  // even on a 3.2 context.
  if (GLAD_GL_EXT_texture_buffer) {
    *directive = "#extension GL_EXT_texture_buffer : require";
    return true;
  }
  if (GLAD_GL_OES_texture_buffer) {
    *directive = "#extension GL_OES_texture_buffer : require";
    return true;
  }
  return false;
}

StatusOr<GlBufferTexture> GlBufferTexture::Create(const std::vector<float>& values) {
  if (values.empty() || values.size() % 4 != 0) {
    return InternalError("a buffer texture holds whole RGBA32F texels");
  }
  GLPOOL_ASSIGN_OR_RETURN(GlBuffer buffer, GlBuffer::CreateWithData(values.data(), values.size() * sizeof(float)));
  // A view of the whole buffer, which it then owns.
  GLPOOL_ASSIGN_OR_RETURN(GlBufferTexture texture, View(buffer.id(), 0, buffer.bytes(), false));
  texture.buffer_ = std::move(buffer);
  return texture;
}

StatusOr<GlBufferTexture> GlBufferTexture::View(GLuint buffer, uint64_t offset, uint64_t bytes, bool half) {
  GlBufferTexture texture;
  GLPOOL_GL_CALL(glGenTextures(1, &texture.id_));
  CountGlObjectCreated();
  GLPOOL_GL_CALL(glBindTexture(GL_TEXTURE_BUFFER, texture.id_));
  const GLenum format = half ? GL_RGBA16F : GL_RGBA32F;
  const auto at = static_cast<GLintptr>(offset);
  const auto size = static_cast<GLsizeiptr>(bytes);
  if (GLAD_GL_EXT_texture_buffer) {
    GLPOOL_GL_CALL(glTexBufferRangeEXT(GL_TEXTURE_BUFFER, format, buffer, at, size));
  } else {
    GLPOOL_GL_CALL(glTexBufferRangeOES(GL_TEXTURE_BUFFER, format, buffer, at, size));
  }
  GLPOOL_GL_CALL(glBindTexture(GL_TEXTURE_BUFFER, 0));
  return texture;
}

Status GlBufferTexture::BindAsSampler(GLuint unit) const {
  GLPOOL_GL_CALL(glActiveTexture(GL_TEXTURE0 + unit));
  GLPOOL_GL_CALL(glBindTexture(GL_TEXTURE_BUFFER, id_));
  return Status::Ok();
}

}  // namespace glpool::gl
