#include "gpu_backend/gl/gl_sync.h"

#include <utility>

#include "gpu_backend/gl/gl_call.h"
#include "gpu_backend/gl/gl_counters.h"

namespace glpool::gl {

GlFence::~GlFence() { Release(); }
GlFence::GlFence(GlFence&& other) noexcept : sync_(std::exchange(other.sync_, nullptr)) {}
GlFence& GlFence::operator=(GlFence&& other) noexcept {
  if (this != &other) {
    Release();
    sync_ = std::exchange(other.sync_, nullptr);
  }
  return *this;
}
void GlFence::Release() {
  if (sync_ != nullptr) {
    glDeleteSync(sync_);
    CountGlObjectDeleted();
  }
  sync_ = nullptr;
}

StatusOr<GlFence> GlFence::Insert() {
  GlFence fence;
  GLPOOL_GL_CALL_RETURN(fence.sync_, glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
  if (fence.sync_ == nullptr) return GlError("glFenceSync returned no sync object");
  CountGlObjectCreated();
  return fence;
}

StatusOr<bool> GlFence::Signaled() const {
  GLPOOL_GL_CALL_RETURN(GLenum result, glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, 0));
  if (result == GL_WAIT_FAILED) return GlError("glClientWaitSync failed");
  return result == GL_ALREADY_SIGNALED || result == GL_CONDITION_SATISFIED;
}

Status GlFence::Wait(uint64_t timeout_ns) const {
  GLPOOL_GL_CALL_RETURN(GLenum result, glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, timeout_ns));
  if (result == GL_TIMEOUT_EXPIRED) return GlError("GPU work did not finish within the fence timeout");
  if (result == GL_WAIT_FAILED) return GlError("glClientWaitSync failed");
  return Status::Ok();
}

}  // namespace glpool::gl
