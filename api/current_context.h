// The GL context a Session runs on is the caller's: whatever EGL context is
// current on the calling thread. glpool resolves its GL entry points from
// that context (through EGL) rather than from one it made itself.
#pragma once

#include "common/status.h"

namespace glpool {

// kUnavailable when no EGL context is current, entry points do not load, or
// the context is older than OpenGL ES 3.1.
Status LoadGlFromCurrentContext();

}  // namespace glpool
