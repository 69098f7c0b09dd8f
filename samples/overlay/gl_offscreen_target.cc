#include "samples/overlay/gl_offscreen_target.h"

#include <string>
#include <utility>

#include "samples/gl_check.h"

namespace glpool::overlay {

GlOffscreenTarget::~GlOffscreenTarget() { Release(); }

GlOffscreenTarget::GlOffscreenTarget(GlOffscreenTarget&& other) noexcept
    : framebuffer_(std::exchange(other.framebuffer_, 0)),
      renderbuffer_(std::exchange(other.renderbuffer_, 0)),
      width_(other.width_),
      height_(other.height_) {}

GlOffscreenTarget& GlOffscreenTarget::operator=(GlOffscreenTarget&& other) noexcept {
  if (this != &other) {
    Release();
    framebuffer_ = std::exchange(other.framebuffer_, 0);
    renderbuffer_ = std::exchange(other.renderbuffer_, 0);
    width_ = other.width_;
    height_ = other.height_;
  }
  return *this;
}

void GlOffscreenTarget::Release() {
  if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
  if (renderbuffer_ != 0) glDeleteRenderbuffers(1, &renderbuffer_);
  framebuffer_ = renderbuffer_ = 0;
}

StatusOr<GlOffscreenTarget> GlOffscreenTarget::Create(int width, int height) {
  if (width <= 0 || height <= 0) {
    return InvalidArgumentError("offscreen target needs a positive size, got " + std::to_string(width) + "x" +
                                std::to_string(height));
  }
  GlOffscreenTarget target;
  target.width_ = width;
  target.height_ = height;
  SAMPLE_GL_CALL(glGenRenderbuffers(1, &target.renderbuffer_));
  SAMPLE_GL_CALL(glBindRenderbuffer(GL_RENDERBUFFER, target.renderbuffer_));
  SAMPLE_GL_CALL(glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height));
  SAMPLE_GL_CALL(glBindRenderbuffer(GL_RENDERBUFFER, 0));
  SAMPLE_GL_CALL(glGenFramebuffers(1, &target.framebuffer_));
  SAMPLE_GL_CALL(glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer_));
  SAMPLE_GL_CALL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                           target.renderbuffer_));
  SAMPLE_GL_CALL_RETURN(const GLenum complete, glCheckFramebufferStatus(GL_FRAMEBUFFER));
  SAMPLE_GL_CALL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
  if (complete != GL_FRAMEBUFFER_COMPLETE) {
    return GlError("offscreen framebuffer incomplete (status 0x" + std::to_string(complete) + ")");
  }
  return target;
}

Status GlOffscreenTarget::Bind() const {
  SAMPLE_GL_CALL(glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_));
  return Status();
}

}  // namespace glpool::overlay
