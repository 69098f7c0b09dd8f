#include "gpu_backend/gl/gl_timer_queries.h"

#include <utility>

#include "gpu_backend/gl/gl_call.h"

namespace glpool::gl {

GlTimerQueries::~GlTimerQueries() { Release(); }

GlTimerQueries::GlTimerQueries(GlTimerQueries&& other) noexcept : ids_(std::exchange(other.ids_, {})) {}

GlTimerQueries& GlTimerQueries::operator=(GlTimerQueries&& other) noexcept {
  if (this != &other) {
    Release();
    ids_ = std::exchange(other.ids_, {});
  }
  return *this;
}

void GlTimerQueries::Release() {
  // Destructors cannot report; a failed delete only leaks query names.
  if (!ids_.empty()) glDeleteQueriesEXT(static_cast<GLsizei>(ids_.size()), ids_.data());
  ids_.clear();
}

bool GlTimerQueries::Supported() {
  if (GLAD_GL_EXT_disjoint_timer_query == 0) return false;
  GLint bits = 0;
  glGetQueryivEXT(GL_TIMESTAMP_EXT, GL_QUERY_COUNTER_BITS_EXT, &bits);
  // A driver that rejects the query has no timestamps either; clear its error.
  return glGetError() == GL_NO_ERROR && bits > 0;
}

Status GlTimerQueries::Start(size_t count) {
  if (count > ids_.size()) {
    const size_t old_size = ids_.size();
    ids_.resize(count, 0);
    GLPOOL_GL_CALL(glGenQueriesEXT(static_cast<GLsizei>(count - old_size), ids_.data() + old_size));
  }
  // Reading GL_GPU_DISJOINT_EXT clears it, so the read sees only this series.
  GLint disjoint = 0;
  GLPOOL_GL_CALL(glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint));
  return Status::Ok();
}

Status GlTimerQueries::Stamp(size_t index) {
  if (index >= ids_.size()) return InternalError("timestamp query index out of range");
  GLPOOL_GL_CALL(glQueryCounterEXT(ids_[index], GL_TIMESTAMP_EXT));
  return Status::Ok();
}

StatusOr<std::vector<double>> GlTimerQueries::ReadMsSinceFirst(size_t count) {
  if (count > ids_.size()) return InternalError("more timestamps read than started");
  std::vector<GLuint64> stamps(count);
  for (size_t i = 0; i < count; ++i) {
    GLPOOL_GL_CALL(glGetQueryObjectui64vEXT(ids_[i], GL_QUERY_RESULT_EXT, &stamps[i]));
  }
  GLint disjoint = 0;
  GLPOOL_GL_CALL(glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint));
  if (disjoint || count == 0) return std::vector<double>{};
  std::vector<double> ms(count);
  for (size_t i = 0; i < count; ++i) {
    // Unsigned difference: a stamp is never before the first one it follows.
    ms[i] = stamps[i] >= stamps[0] ? static_cast<double>(stamps[i] - stamps[0]) / 1e6 : 0.0;
  }
  return ms;
}

}  // namespace glpool::gl
