// What the fuzz targets treat as a finding besides a crash, a hang or a
// sanitizer report: a broken promise of the code under test (a plan the
// verifier rejects, an error with no message, an "internal error" on input
// that is merely hostile). FUZZ_CHECK prints the promise and aborts, which
// libFuzzer and the standalone driver both record as a crash with its input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/status.h"

#define FUZZ_CHECK(condition, what)                                                             \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  %s\n", __FILE__, __LINE__,        \
                   #condition, std::string(what).c_str());                                      \
      std::abort();                                                                             \
    }                                                                                           \
  } while (false)

namespace glpool::fuzz {

// An error returned for hostile input must say what is wrong and must not
// claim to be glpool's own fault (kInternal means a broken invariant).
// GLPOOL_FUZZ_VERBOSE=1 prints every rejection: how to see whether seeds
// get past the first checks.
inline void CheckCleanError(const Status& status) {
  if (std::getenv("GLPOOL_FUZZ_VERBOSE") != nullptr) std::fprintf(stderr, "rejected: %s\n", status.ToString().c_str());
  FUZZ_CHECK(!status.ok(), "an error was expected");
  FUZZ_CHECK(!status.message().empty(), "an error with an empty message: " + status.ToString());
  FUZZ_CHECK(status.code() != StatusCode::kInternal, status.ToString());
}

}  // namespace glpool::fuzz
