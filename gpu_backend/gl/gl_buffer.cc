#include "gpu_backend/gl/gl_buffer.h"

#include "gpu_backend/gl/gl_counters.h"

#include <cstring>
#include <utility>

#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/scoped_binding.h"

namespace glpool::gl {

GlBuffer::~GlBuffer() { Release(); }

GlBuffer::GlBuffer(GlBuffer&& other) noexcept
    : id_(std::exchange(other.id_, 0)), bytes_(std::exchange(other.bytes_, 0)) {}

GlBuffer& GlBuffer::operator=(GlBuffer&& other) noexcept {
  if (this != &other) {
    Release();
    id_ = std::exchange(other.id_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void GlBuffer::Release() {
  if (id_ != 0) {
    glDeleteBuffers(1, &id_);
    CountGlObjectDeleted();
  }
  id_ = 0;
  bytes_ = 0;
}

StatusOr<GlBuffer> GlBuffer::Create(uint64_t bytes) {
  std::vector<uint8_t> zeros(bytes, 0);
  return CreateWithData(zeros.data(), bytes);
}

StatusOr<GlBuffer> GlBuffer::CreateUninitialized(uint64_t bytes) { return CreateWithData(nullptr, bytes); }

StatusOr<GlBuffer> GlBuffer::CreateWithData(const void* data, uint64_t bytes) {
  if (bytes == 0) return InvalidArgumentError("a shader storage buffer needs a size above 0 bytes");
  GLuint id = 0;
  GLPOOL_GL_CALL(glGenBuffers(1, &id));
  GlBuffer buffer(id, bytes);  // owns `id` from here, so errors below free it
  CountGlObjectCreated();
  if (InjectedFaultDue(GlFault::kOutOfMemory)) {
    return OutOfMemoryError("glBufferData of " + std::to_string(bytes) +
                            " bytes failed with GL_OUT_OF_MEMORY (injected for testing)");
  }
  ScopedBufferBinding binding(GL_SHADER_STORAGE_BUFFER, id);
  GLPOOL_RETURN_IF_ERROR(binding.status());
  GLPOOL_GL_CALL(glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(bytes), data, GL_STATIC_DRAW));
  return buffer;
}

Status GlBuffer::BindToIndex(GLuint index) const {
  GLPOOL_GL_CALL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, index, id_));
  return Status::Ok();
}

Status GlBuffer::BindUniformToIndex(GLuint index) const {
  GLPOOL_GL_CALL(glBindBufferBase(GL_UNIFORM_BUFFER, index, id_));
  return Status::Ok();
}

Status GlBuffer::BindRange(GLuint index, uint64_t offset, uint64_t size) const {
  if (offset + size > bytes_) {
    return InternalError("binding bytes [" + std::to_string(offset) + ", " + std::to_string(offset + size) +
                         ") of a " + std::to_string(bytes_) + "-byte buffer");
  }
  GLPOOL_GL_CALL(glBindBufferRange(GL_SHADER_STORAGE_BUFFER, index, id_, static_cast<GLintptr>(offset),
                                   static_cast<GLsizeiptr>(size)));
  return Status::Ok();
}

Status GlBuffer::Write(uint64_t offset, const void* data, uint64_t size) const {
  if (offset + size > bytes_) return InternalError("buffer write past its end");
  ScopedBufferBinding binding(GL_SHADER_STORAGE_BUFFER, id_);
  GLPOOL_RETURN_IF_ERROR(binding.status());
  GLPOOL_GL_CALL(glBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset),
                                 static_cast<GLsizeiptr>(size), data));
  return Status::Ok();
}

Status GlBuffer::Read(uint64_t offset, void* data, uint64_t size) const {
  if (offset + size > bytes_) return InternalError("buffer read past its end");
  if (size == 0) return Status::Ok();
  CountGpuRead();
  ScopedBufferBinding binding(GL_SHADER_STORAGE_BUFFER, id_);
  GLPOOL_RETURN_IF_ERROR(binding.status());
  GLPOOL_GL_CALL_RETURN(void* mapped, glMapBufferRange(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset),
                                                      static_cast<GLsizeiptr>(size), GL_MAP_READ_BIT));
  if (mapped == nullptr) return GlError("glMapBufferRange returned no pointer");
  std::memcpy(data, mapped, size);
  GLPOOL_GL_CALL_RETURN(GLboolean intact, glUnmapBuffer(GL_SHADER_STORAGE_BUFFER));
  if (intact != GL_TRUE) return GlError("glUnmapBuffer reported the buffer contents corrupt");
  return Status::Ok();
}

}  // namespace glpool::gl
