#include "gpu_backend/runtime/cpu_spin.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace glpool {
namespace {

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Moves the calling thread to the idle scheduling class; false if it cannot.
bool LowerToIdlePriority() {
#if defined(__linux__) && defined(SCHED_IDLE)
  sched_param param{};
  param.sched_priority = 0;
  return pthread_setschedparam(pthread_self(), SCHED_IDLE, &param) == 0;
#else
  return false;
#endif
}

// The process's spinning threads: started by the first scope, parked on a
// condition variable while no scope is alive. Never destroyed and never
// joined: the threads end with the process, and a forked child (which has
// none of them) has nothing to join either.
class Spinners {
 public:
  static Spinners& Get() {
    static Spinners* spinners = new Spinners;
    return *spinners;
  }

  void Begin() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!started_) {
      const unsigned count = std::max(1u, std::thread::hardware_concurrency());
      for (unsigned i = 0; i < count; ++i) std::thread([this] { Loop(); }).detach();
      started_ = true;
      // Wait until every spinner has moved to the idle class (or found it
      // cannot and ended): from the first spinning run on, every spinner
      // that exists is at idle priority.
      settled_.wait(lock, [this, count] { return settled_count_ == count; });
    }
    active_.fetch_add(1);
    wake_.notify_all();
  }

  void End() { active_.fetch_sub(1); }

 private:
  Spinners() = default;

  void Loop() {
    const bool idle = LowerToIdlePriority();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++settled_count_;
    }
    settled_.notify_all();
    if (!idle) return;  // at normal priority it would take CPU from real work
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return active_.load() > 0; });
      }
      while (active_.load(std::memory_order_relaxed) > 0) CpuRelax();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable settled_;  // a spinner has set its priority or given up
  std::atomic<int> active_{0};
  bool started_ = false;       // under mutex_
  unsigned settled_count_ = 0;  // under mutex_: spinners past LowerToIdlePriority
};

}  // namespace

CpuSpinScope::CpuSpinScope(bool enabled) : enabled_(enabled && CpuSpinSupported()) {
  if (enabled_) Spinners::Get().Begin();
}

CpuSpinScope::~CpuSpinScope() {
  if (enabled_) Spinners::Get().End();
}

bool CpuSpinSupported() {
#if defined(__linux__) && defined(SCHED_IDLE)
  return true;
#else
  return false;
#endif
}

}  // namespace glpool
