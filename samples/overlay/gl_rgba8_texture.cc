#include "samples/overlay/gl_rgba8_texture.h"

#include <string>
#include <utility>

#include "samples/gl_check.h"

namespace glpool::overlay {

GlRgba8Texture::~GlRgba8Texture() { Release(); }

GlRgba8Texture::GlRgba8Texture(GlRgba8Texture&& other) noexcept
    : id_(std::exchange(other.id_, 0)), width_(other.width_), height_(other.height_) {}

GlRgba8Texture& GlRgba8Texture::operator=(GlRgba8Texture&& other) noexcept {
  if (this != &other) {
    Release();
    id_ = std::exchange(other.id_, 0);
    width_ = other.width_;
    height_ = other.height_;
  }
  return *this;
}

void GlRgba8Texture::Release() {
  if (id_ != 0) glDeleteTextures(1, &id_);
  id_ = 0;
}

StatusOr<GlRgba8Texture> GlRgba8Texture::Create(int width, int height, const std::vector<uint8_t>& rgba) {
  if (width <= 0 || height <= 0 || rgba.size() != static_cast<size_t>(width) * height * 4) {
    return InvalidArgumentError("RGBA8 texture: " + std::to_string(rgba.size()) + " bytes for " +
                                std::to_string(width) + "x" + std::to_string(height));
  }
  GlRgba8Texture texture;
  texture.width_ = width;
  texture.height_ = height;
  SAMPLE_GL_CALL(glGenTextures(1, &texture.id_));
  SAMPLE_GL_CALL(glBindTexture(GL_TEXTURE_2D, texture.id_));
  SAMPLE_GL_CALL(glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height));
  // Rows of 4-byte texels are always 4-aligned; set it anyway so a caller's
  // unpack state cannot skew the image.
  SAMPLE_GL_CALL(glPixelStorei(GL_UNPACK_ALIGNMENT, 4));
  SAMPLE_GL_CALL(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data()));
  SAMPLE_GL_CALL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR));
  SAMPLE_GL_CALL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR));
  SAMPLE_GL_CALL(glBindTexture(GL_TEXTURE_2D, 0));
  return texture;
}

}  // namespace glpool::overlay
