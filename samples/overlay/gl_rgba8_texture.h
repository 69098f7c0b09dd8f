// GlRgba8Texture: one immutable RGBA8 2D texture, owned, for showing an
// image in the overlay (the network's input with its mask blended over it).
// gl::GlTexture holds only the float formats compute kernels use.
#pragma once

#include <glad/gles2.h>

#include <cstdint>
#include <vector>

#include "glpool/status.h"

namespace glpool::overlay {

class GlRgba8Texture {
 public:
  GlRgba8Texture() = default;
  ~GlRgba8Texture();
  GlRgba8Texture(GlRgba8Texture&& other) noexcept;
  GlRgba8Texture& operator=(GlRgba8Texture&& other) noexcept;
  GlRgba8Texture(const GlRgba8Texture&) = delete;
  GlRgba8Texture& operator=(const GlRgba8Texture&) = delete;

  // `rgba` holds width * height * 4 bytes, rows top to bottom.
  static StatusOr<GlRgba8Texture> Create(int width, int height, const std::vector<uint8_t>& rgba);

  GLuint id() const { return id_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  void Release();
  GLuint id_ = 0;
  int width_ = 0;
  int height_ = 0;
};

}  // namespace glpool::overlay
