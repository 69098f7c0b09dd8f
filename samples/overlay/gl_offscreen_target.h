// GlOffscreenTarget: a framebuffer with one RGBA8 colour renderbuffer, both
// owned, so the overlay can be drawn on a headless context (no window, no
// default framebuffer) and read back with glReadPixels.
#pragma once

#include <glad/gles2.h>

#include "glpool/status.h"

namespace glpool::overlay {

class GlOffscreenTarget {
 public:
  GlOffscreenTarget() = default;
  ~GlOffscreenTarget();
  GlOffscreenTarget(GlOffscreenTarget&& other) noexcept;
  GlOffscreenTarget& operator=(GlOffscreenTarget&& other) noexcept;
  GlOffscreenTarget(const GlOffscreenTarget&) = delete;
  GlOffscreenTarget& operator=(const GlOffscreenTarget&) = delete;

  // Fails unless the framebuffer is complete.
  static StatusOr<GlOffscreenTarget> Create(int width, int height);

  // Binds the framebuffer for drawing and reading; it stays bound until
  // another framebuffer is bound (the overlay owns the context while it draws).
  Status Bind() const;
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  void Release();
  GLuint framebuffer_ = 0;
  GLuint renderbuffer_ = 0;
  int width_ = 0;
  int height_ = 0;
};

}  // namespace glpool::overlay
