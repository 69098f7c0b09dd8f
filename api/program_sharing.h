// One ProgramCache per GL context, shared by every Session created on it
// while any of them lives: a Session with other options (the overlay
// switching strategy) reuses the programs compiled before.
#pragma once

#include <memory>

#include "gpu_backend/runtime/program_cache.h"

namespace glpool {

// The cache of the EGL context current on this thread (LoadGlFromCurrentContext first).
std::shared_ptr<ProgramCache> ProgramsOfCurrentContext();

}  // namespace glpool
