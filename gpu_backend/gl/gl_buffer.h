// GlBuffer: one shader storage buffer of fixed size, owned by this object.
//
// The size is set at creation and never changes, like the pool's shared
// objects. Move-only: exactly one owner deletes the GL name.
#pragma once

#include <glad/gles2.h>

#include <cstdint>
#include <vector>

#include "common/status.h"

namespace glpool::gl {

class GlBuffer {
 public:
  GlBuffer() = default;
  ~GlBuffer();
  GlBuffer(GlBuffer&& other) noexcept;
  GlBuffer& operator=(GlBuffer&& other) noexcept;
  GlBuffer(const GlBuffer&) = delete;
  GlBuffer& operator=(const GlBuffer&) = delete;

  // A zero-filled buffer of `bytes` (> 0) bytes.
  static StatusOr<GlBuffer> Create(uint64_t bytes);
  // A buffer of `bytes` (> 0) whose contents are undefined until written
  // (glBufferData with no data): for objects a kernel writes before any
  // read, made on every run (the dynamic memory mode).
  static StatusOr<GlBuffer> CreateUninitialized(uint64_t bytes);
  // A buffer holding a copy of `data`.
  static StatusOr<GlBuffer> CreateWithData(const void* data, uint64_t bytes);

  GLuint id() const { return id_; }
  uint64_t bytes() const { return bytes_; }

  // Binds the whole buffer, or [offset, offset + size), to SSBO binding `index`.
  Status BindToIndex(GLuint index) const;
  Status BindRange(GLuint index, uint64_t offset, uint64_t size) const;
  // Binds the whole buffer to uniform-buffer binding `index`.
  Status BindUniformToIndex(GLuint index) const;

  Status Write(uint64_t offset, const void* data, uint64_t size) const;
  Status Read(uint64_t offset, void* data, uint64_t size) const;

  template <typename T>
  StatusOr<std::vector<T>> ReadAll() const {
    std::vector<T> values(bytes_ / sizeof(T));
    GLPOOL_RETURN_IF_ERROR(Read(0, values.data(), values.size() * sizeof(T)));
    return values;
  }

 private:
  GlBuffer(GLuint id, uint64_t bytes) : id_(id), bytes_(bytes) {}
  void Release();

  GLuint id_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace glpool::gl
