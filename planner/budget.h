// Time budgets and deadlines: how every search in the planner stays bounded.
//
// Each search checks a Deadline (CPU time) and keeps its own iteration
// guard (node or round counts), so no input can make it run on: the clock
// bounds the time, the guard bounds the work when the clock is generous.
// Deadline::Expired() reads the clock only every 64th call, so it is cheap
// enough to ask in inner loops.
#pragma once

#include <time.h>

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace glpool {

// The planner's clock: the calling thread's CPU time (the planner runs on
// one thread). Budgets are CPU seconds, so what a search achieves in its
// budget depends on the work allowed, not on how busy the machine is: on a
// shared machine wall time can be several times the CPU time, and a
// wall-clock budget then leaves a search a fraction of its work. A plan's
// wall time is its CPU time on an idle machine, more when it is shared.
// Meets the standard's Clock requirements, so searches use it as they would
// steady_clock.
struct PlannerClock {
  using rep = int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<PlannerClock>;
  static constexpr bool is_steady = true;
  static time_point now() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(duration(static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec));
  }
};

// EXACT's default budget when the caller sets none.
inline constexpr double kDefaultExactBudgetSeconds = 10.0;

// AUTO's default budget (shared objects and offsets) when the caller sets
// none, scaled to the problem: 45 ms plus 4.5 microseconds per record
// (90 ms at 10,000 records, 0.495 s at 100,000: AUTO's goal is 100 ms and
// 1 s there, and a deadline is checked between steps). Record sets the size
// of real networks (hundreds of tensors) finish their node-bounded searches
// well inside it; larger ones get room for the cheap strategies, whose cost
// grows as n log n, and whatever improvement the rest of the budget allows.
inline double DefaultAutoBudgetSeconds(size_t records) {
  return 0.045 + 4.5e-6 * static_cast<double>(records);
}

class Deadline {
 public:
  using Clock = PlannerClock;

  // `seconds` from now; a huge or infinite budget means "never" in practice.
  explicit Deadline(double seconds)
      : at_(seconds >= 1e6 ? Clock::time_point::max()
                           : Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(seconds))) {}
  explicit Deadline(Clock::time_point at) : at_(at) {}

  Clock::time_point at() const { return at_; }

  // Checks the clock every 64th call (and on the first); once expired, stays so.
  bool Expired() const {
    if (expired_) return true;
    if ((calls_++ & 63) != 0) return false;
    expired_ = Clock::now() >= at_;
    return expired_;
  }

  // Checks the clock now.
  bool ExpiredNow() const {
    expired_ = expired_ || Clock::now() >= at_;
    return expired_;
  }

  // Seconds left (0 once past).
  double SecondsLeft() const {
    const double left = std::chrono::duration<double>(at_ - Clock::now()).count();
    return left > 0 ? left : 0.0;
  }

 private:
  Clock::time_point at_;
  mutable uint64_t calls_ = 0;
  mutable bool expired_ = false;
};

}  // namespace glpool
