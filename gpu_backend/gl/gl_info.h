// What the current context is and the limits the planner and kernels use.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "glpool/gpu_info.h"

namespace glpool::gl {

using GlInfo = ::glpool::GlInfo;  // declared in the public glpool/gpu_info.h

// Reads everything from the current context.
StatusOr<GlInfo> QueryGlInfo();

}  // namespace glpool::gl
