// The child side of the program-cache test: api_tests re-runs itself with
// --program-cache-child DIR, a fresh process that creates one Session with
// the cache in DIR, runs it once, and prints its counters and an output sum.
#pragma once

namespace glpool::testing_util {

int RunProgramCacheChild(const char* dir);

}  // namespace glpool::testing_util
