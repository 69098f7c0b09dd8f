#include "gpu_backend/gl/gl_texture.h"

#include <utility>

#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/gl_counters.h"
#include "gpu_backend/gl/scoped_binding.h"

namespace glpool::gl {

const char* TextureFormatName(TextureFormat format) {
  return format == TextureFormat::kRgba16F ? "rgba16f" : "rgba32f";
}

GLenum TextureInternalFormat(TextureFormat format) {
  return format == TextureFormat::kRgba16F ? GL_RGBA16F : GL_RGBA32F;
}

uint64_t BytesPerTexel(TextureFormat format) { return format == TextureFormat::kRgba16F ? 8 : 16; }

GlTexture::~GlTexture() { Release(); }

GlTexture::GlTexture(GlTexture&& other) noexcept
    : id_(std::exchange(other.id_, 0)),
      kind_(other.kind_),
      format_(other.format_),
      width_(other.width_),
      height_(other.height_),
      layers_(other.layers_) {}

GlTexture& GlTexture::operator=(GlTexture&& other) noexcept {
  if (this != &other) {
    Release();
    id_ = std::exchange(other.id_, 0);
    kind_ = other.kind_;
    format_ = other.format_;
    width_ = other.width_;
    height_ = other.height_;
    layers_ = other.layers_;
  }
  return *this;
}

void GlTexture::Release() {
  if (id_ != 0) {
    glDeleteTextures(1, &id_);
    CountGlObjectDeleted();
  }
  id_ = 0;
}

namespace {

Status CreateStorage(GlTexture& texture, GLenum target, uint32_t width, uint32_t height, uint32_t layers,
                     TextureFormat format) {
  ScopedTextureBinding binding(target, texture.id());
  GLPOOL_RETURN_IF_ERROR(binding.status());
  GLPOOL_GL_CALL(glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
  GLPOOL_GL_CALL(glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
  if (target == GL_TEXTURE_2D) {
    GLPOOL_GL_CALL(glTexStorage2D(target, 1, TextureInternalFormat(format), static_cast<GLsizei>(width),
                                  static_cast<GLsizei>(height)));
  } else {
    GLPOOL_GL_CALL(glTexStorage3D(target, 1, TextureInternalFormat(format), static_cast<GLsizei>(width),
                                  static_cast<GLsizei>(height), static_cast<GLsizei>(layers)));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<GlTexture> GlTexture::Create2D(uint32_t width, uint32_t height, TextureFormat format) {
  return Create(TextureKind::k2D, width, height, 1, format);
}

StatusOr<GlTexture> GlTexture::Create2DArray(uint32_t width, uint32_t height, uint32_t layers,
                                             TextureFormat format) {
  return Create(TextureKind::k2DArray, width, height, layers, format);
}

StatusOr<GlTexture> GlTexture::Create(TextureKind kind, uint32_t width, uint32_t height, uint32_t layers,
                                      TextureFormat format) {
  const bool is_array = kind == TextureKind::k2DArray;
  if (width == 0 || height == 0 || layers == 0) {
    return InvalidArgumentError("a texture needs a non-empty extent");
  }
  GlTexture texture;
  GLPOOL_GL_CALL(glGenTextures(1, &texture.id_));
  CountGlObjectCreated();
  if (InjectedFaultDue(GlFault::kOutOfMemory)) {
    return OutOfMemoryError("glTexStorage of a " + std::to_string(width) + "x" + std::to_string(height) +
                            " texture failed with GL_OUT_OF_MEMORY (injected for testing)");
  }
  texture.kind_ = is_array ? TextureKind::k2DArray : TextureKind::k2D;
  texture.format_ = format;
  texture.width_ = width;
  texture.height_ = height;
  texture.layers_ = layers;
  GLPOOL_TRY_CONTEXT(CreateStorage(texture, texture.target(), width, height, layers, format),
                     "creating a " + std::to_string(width) + "x" + std::to_string(height) +
                         (is_array ? "x" + std::to_string(layers) : std::string()) + " " +
                         TextureFormatName(format) + " texture");
  return texture;
}

Status GlTexture::BindAsImage(GLuint unit, GLenum access) const {
  const GLboolean layered = kind_ == TextureKind::k2DArray ? GL_TRUE : GL_FALSE;
  GLPOOL_GL_CALL(glBindImageTexture(unit, id_, 0, layered, 0, access, TextureInternalFormat(format_)));
  return Status::Ok();
}

Status GlTexture::BindAsSampler(GLuint unit) const {
  GLPOOL_GL_CALL(glActiveTexture(GL_TEXTURE0 + unit));
  GLPOOL_GL_CALL(glBindTexture(target(), id_));
  return Status::Ok();
}

}  // namespace glpool::gl
