// GlFence: a GL sync object marking a point in the command stream, owned.
#pragma once

#include <glad/gles2.h>

#include <cstdint>

#include "common/status.h"

namespace glpool::gl {

class GlFence {
 public:
  GlFence() = default;
  ~GlFence();
  GlFence(GlFence&& other) noexcept;
  GlFence& operator=(GlFence&& other) noexcept;
  GlFence(const GlFence&) = delete;
  GlFence& operator=(const GlFence&) = delete;

  // Inserts a fence after every command issued so far.
  static StatusOr<GlFence> Insert();
  // Whether the GPU has passed the fence, without waiting (flushes, so a
  // fence not yet submitted will be).
  StatusOr<bool> Signaled() const;
  // Blocks until the GPU passes the fence; a timeout is an error.
  Status Wait(uint64_t timeout_ns = 10'000'000'000ull) const;

 private:
  void Release();
  GLsync sync_ = nullptr;
};

}  // namespace glpool::gl
