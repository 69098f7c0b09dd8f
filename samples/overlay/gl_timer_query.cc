#include "samples/overlay/gl_timer_query.h"

#include <utility>

#include "samples/gl_check.h"

namespace glpool::overlay {

GlTimerQuery::~GlTimerQuery() { Release(); }

GlTimerQuery::GlTimerQuery(GlTimerQuery&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

GlTimerQuery& GlTimerQuery::operator=(GlTimerQuery&& other) noexcept {
  if (this != &other) {
    Release();
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void GlTimerQuery::Release() {
  // Destructors cannot report; a failed delete only leaks a query name.
  if (id_ != 0) glDeleteQueriesEXT(1, &id_);
  id_ = 0;
}

StatusOr<GlTimerQuery> GlTimerQuery::Create() {
  if (!GLAD_GL_EXT_disjoint_timer_query) {
    return UnavailableError("GL_EXT_disjoint_timer_query is not supported by this context");
  }
  GLuint id = 0;
  SAMPLE_GL_CALL(glGenQueriesEXT(1, &id));
  return GlTimerQuery(id);
}

Status GlTimerQuery::Begin() {
  // Reading GL_GPU_DISJOINT_EXT clears the flag, so End() sees only what
  // happened during this measurement.
  GLint disjoint = 0;
  SAMPLE_GL_CALL(glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint));
  SAMPLE_GL_CALL(glBeginQueryEXT(GL_TIME_ELAPSED_EXT, id_));
  return Status();
}

Status GlTimerQuery::End() {
  SAMPLE_GL_CALL(glEndQueryEXT(GL_TIME_ELAPSED_EXT));
  return Status();
}

StatusOr<double> GlTimerQuery::ElapsedMs() {
  GLuint64 nanoseconds = 0;
  SAMPLE_GL_CALL(glGetQueryObjectui64vEXT(id_, GL_QUERY_RESULT_EXT, &nanoseconds));
  GLint disjoint = 0;
  SAMPLE_GL_CALL(glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint));
  if (disjoint) return -1.0;
  return static_cast<double>(nanoseconds) / 1e6;
}

}  // namespace glpool::overlay
