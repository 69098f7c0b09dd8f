#include "api/program_sharing.h"

#include <glad/egl.h>

#include <map>
#include <mutex>

namespace glpool {

std::shared_ptr<ProgramCache> ProgramsOfCurrentContext() {
  static std::mutex mutex;
  // Weak: the cache dies with the last Session of its context, so a context
  // created later at the same address never sees stale programs.
  static std::map<EGLContext, std::weak_ptr<ProgramCache>> caches;
  const EGLContext context = eglGetCurrentContext();
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<ProgramCache> cache = caches[context].lock();
  if (!cache) {
    cache = std::make_shared<ProgramCache>();
    caches[context] = cache;
  }
  return cache;
}

}  // namespace glpool
