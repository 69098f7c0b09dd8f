// GlTexture: one immutable RGBA float texture (glTexStorage2D/3D), owned.
//
// Immutable storage is why the pool exists at all: a texture's extent is
// fixed at creation, so the planner must pick object sizes up front.
// Textures use NEAREST filtering so that texelFetch works for RGBA32F,
// which is not filterable in GLES.
#pragma once

#include <glad/gles2.h>

#include <cstdint>
#include <string>

#include "common/status.h"

namespace glpool::gl {

enum class TextureFormat { kRgba16F, kRgba32F };

const char* TextureFormatName(TextureFormat format);  // "rgba16f" (the GLSL image format)
GLenum TextureInternalFormat(TextureFormat format);
uint64_t BytesPerTexel(TextureFormat format);

enum class TextureKind { k2D, k2DArray };

class GlTexture {
 public:
  GlTexture() = default;
  ~GlTexture();
  GlTexture(GlTexture&& other) noexcept;
  GlTexture& operator=(GlTexture&& other) noexcept;
  GlTexture(const GlTexture&) = delete;
  GlTexture& operator=(const GlTexture&) = delete;

  static StatusOr<GlTexture> Create2D(uint32_t width, uint32_t height, TextureFormat format);
  static StatusOr<GlTexture> Create2DArray(uint32_t width, uint32_t height, uint32_t layers,
                                           TextureFormat format);

  GLuint id() const { return id_; }
  GLenum target() const { return kind_ == TextureKind::k2D ? GL_TEXTURE_2D : GL_TEXTURE_2D_ARRAY; }
  TextureKind kind() const { return kind_; }
  TextureFormat format() const { return format_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t layers() const { return layers_; }  // 1 for 2D textures
  uint64_t bytes() const { return uint64_t{width_} * height_ * layers_ * BytesPerTexel(format_); }

  // Binds level 0 (all layers) to image unit `unit` for imageLoad/imageStore.
  Status BindAsImage(GLuint unit, GLenum access) const;
  // Binds to texture unit `unit` for texelFetch through a sampler.
  Status BindAsSampler(GLuint unit) const;

 private:
  static StatusOr<GlTexture> Create(TextureKind kind, uint32_t width, uint32_t height, uint32_t layers,
                                    TextureFormat format);
  void Release();

  GLuint id_ = 0;
  TextureKind kind_ = TextureKind::k2D;
  TextureFormat format_ = TextureFormat::kRgba32F;
  uint32_t width_ = 0;
  uint32_t height_ = 0;
  uint32_t layers_ = 0;
};

}  // namespace glpool::gl
