// GlTimerQueries: GL_TIMESTAMP_EXT query objects (GL_EXT_disjoint_timer_query),
// owned, one per point in a run's command stream. A timestamp is written
// once every command before it has completed, so the differences between
// consecutive stamps split the GPU's timeline into the work between them,
// and they add up to the whole. (Elapsed-time spans around each dispatch do
// not: on NVIDIA's driver a span also counts the wait for the work still in
// flight before it, and a run's spans added up to four times its length.)
#pragma once

#include <glad/gles2.h>

#include <vector>

#include "common/status.h"

namespace glpool::gl {

class GlTimerQueries {
 public:
  GlTimerQueries() = default;
  ~GlTimerQueries();
  GlTimerQueries(GlTimerQueries&& other) noexcept;
  GlTimerQueries& operator=(GlTimerQueries&& other) noexcept;
  GlTimerQueries(const GlTimerQueries&) = delete;
  GlTimerQueries& operator=(const GlTimerQueries&) = delete;

  // Whether the current context has GL_EXT_disjoint_timer_query with a
  // timestamp counter (the extension allows one of 0 bits: none).
  static bool Supported();
  // Starts a series of stamps: makes query objects up to `count` (kept for
  // later series) and clears the disjoint flag.
  Status Start(size_t count);
  // Stamp `index` (< the count given to Start), after everything issued so far.
  Status Stamp(size_t index);
  // Waits for the first `count` stamps and returns each one's milliseconds
  // after stamp 0; empty when the GPU reported a disjoint event (a clock
  // change or preemption) during the series: the times are then meaningless.
  StatusOr<std::vector<double>> ReadMsSinceFirst(size_t count);

 private:
  void Release();
  std::vector<GLuint> ids_;
};

}  // namespace glpool::gl
