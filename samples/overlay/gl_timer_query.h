// GlTimerQuery: one GL_TIME_ELAPSED_EXT query object (GL_EXT_disjoint_timer_query),
// owned. The overlay uses it to time a whole network run on the GPU; it
// exists only where the context has the extension (gl::GlInfo::timer_queries).
#pragma once

#include <glad/gles2.h>

#include "glpool/status.h"

namespace glpool::overlay {

class GlTimerQuery {
 public:
  GlTimerQuery() = default;
  ~GlTimerQuery();
  GlTimerQuery(GlTimerQuery&& other) noexcept;
  GlTimerQuery& operator=(GlTimerQuery&& other) noexcept;
  GlTimerQuery(const GlTimerQuery&) = delete;
  GlTimerQuery& operator=(const GlTimerQuery&) = delete;

  // Unavailable when the current context lacks GL_EXT_disjoint_timer_query.
  static StatusOr<GlTimerQuery> Create();

  Status Begin();
  Status End();
  // Waits for the result. Returns a negative value when the GPU reported a
  // disjoint event (clock change, preemption): the timing is then meaningless.
  StatusOr<double> ElapsedMs();

 private:
  explicit GlTimerQuery(GLuint id) : id_(id) {}
  void Release();
  GLuint id_ = 0;
};

}  // namespace glpool::overlay
