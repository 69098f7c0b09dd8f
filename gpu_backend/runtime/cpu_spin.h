// Keeping the CPUs awake while a Run is in flight on a software renderer.
//
// Mesa's llvmpipe runs each compute dispatch on its worker threads and the
// calling thread sleeps until they are done: two thread wake-ups per
// dispatch. When a CPU has gone idle, waking it costs far more than the
// dispatch itself on many virtual machines (measured on this project's
// 2-core VM: PP-LCNet's 66 dispatches took 7.9 ms with the CPUs idling
// between wake-ups and 4.8 ms with them kept busy). CPU runtimes meet the
// same cost the same way: their thread pools spin before they sleep.
//
// CpuSpinScope starts, on first use, one spinning thread per CPU at the
// lowest scheduling class (Linux SCHED_IDLE: it runs only on a CPU nothing
// else wants, and yields it at once to any thread that wakes), and lets
// them spin while at least one scope is alive; between scopes they sleep.
// Where SCHED_IDLE cannot be had, nothing spins.
#pragma once

namespace glpool {

class CpuSpinScope {
 public:
  explicit CpuSpinScope(bool enabled);
  ~CpuSpinScope();
  CpuSpinScope(const CpuSpinScope&) = delete;
  CpuSpinScope& operator=(const CpuSpinScope&) = delete;

 private:
  bool enabled_;
};

// Whether this platform can spin at idle priority (Linux).
bool CpuSpinSupported();

}  // namespace glpool
