// GlBufferTexture: a texture buffer (GLES 3.2, GL_EXT/OES_texture_buffer)
// over its own buffer of RGBA32F texels, both owned. Kernels read weights
// from one with texelFetch(samplerBuffer, i): a one-dimensional fetch with
// no mip level or row to resolve, which llvmpipe runs about 1.5x faster
// than a 2D texture's texelFetch in a conv (3x3 256->256 at 14x14, one
// thread: 12.3 vs 19.9 ms).
#pragma once

#include <glad/gles2.h>

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "gpu_backend/gl/gl_buffer.h"

namespace glpool::gl {

class GlBufferTexture {
 public:
  GlBufferTexture() = default;
  ~GlBufferTexture();
  GlBufferTexture(GlBufferTexture&& other) noexcept;
  GlBufferTexture& operator=(GlBufferTexture&& other) noexcept;
  GlBufferTexture(const GlBufferTexture&) = delete;
  GlBufferTexture& operator=(const GlBufferTexture&) = delete;

  // Whether the current context has texture buffers a `#version 310 es`
  // shader can enable; `directive` gets the #extension line to put after
  // the #version line.
  static bool Supported(std::string* directive);
  // `values` (a multiple of 4 floats) as RGBA32F texels in a buffer of its own.
  static StatusOr<GlBufferTexture> Create(const std::vector<float>& values);
  // A texture over bytes [offset, offset + bytes) of a buffer it does not
  // own (which must outlive it), as RGBA16F (`half`) or RGBA32F texels.
  static StatusOr<GlBufferTexture> View(GLuint buffer, uint64_t offset, uint64_t bytes, bool half);

  uint64_t bytes() const { return buffer_.bytes(); }
  // Binds to texture unit `unit` for texelFetch through a samplerBuffer.
  Status BindAsSampler(GLuint unit) const;

 private:
  void Release();
  GlBuffer buffer_;  // empty for a view
  GLuint id_ = 0;
};

}  // namespace glpool::gl
