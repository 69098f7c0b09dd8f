#include "gpu_backend/gl/gl_counters.h"

#include <atomic>

namespace glpool {
namespace {

std::atomic<uint64_t> shader_compiles{0};
std::atomic<uint64_t> program_binary_loads{0};
std::atomic<uint64_t> pool_plans{0};
std::atomic<uint64_t> gpu_reads{0};
std::atomic<uint64_t> gl_objects_created{0};
std::atomic<uint64_t> gl_objects_deleted{0};
// Per fault: -1 when none is injected, else how many matching calls pass
// before one fails.
std::atomic<int> fault_countdown[3] = {-1, -1, -1};

}  // namespace

namespace gl {
void CountShaderCompile() { shader_compiles.fetch_add(1, std::memory_order_relaxed); }
void CountProgramBinaryLoad() { program_binary_loads.fetch_add(1, std::memory_order_relaxed); }
void CountPoolPlan() { pool_plans.fetch_add(1, std::memory_order_relaxed); }
void CountGpuRead() { gpu_reads.fetch_add(1, std::memory_order_relaxed); }
void CountGlObjectCreated() { gl_objects_created.fetch_add(1, std::memory_order_relaxed); }
void CountGlObjectDeleted() { gl_objects_deleted.fetch_add(1, std::memory_order_relaxed); }
bool InjectedFaultDue(GlFault fault) {
  std::atomic<int>& countdown = fault_countdown[static_cast<int>(fault)];
  int left = countdown.load();
  while (left >= 0) {
    if (countdown.compare_exchange_weak(left, left - 1)) return left == 0;
  }
  return false;
}
}  // namespace gl

RuntimeCounters GetRuntimeCounters() {
  RuntimeCounters counters;
  counters.shader_compiles = shader_compiles.load(std::memory_order_relaxed);
  counters.program_binary_loads = program_binary_loads.load(std::memory_order_relaxed);
  counters.pool_plans = pool_plans.load(std::memory_order_relaxed);
  counters.gpu_reads = gpu_reads.load(std::memory_order_relaxed);
  counters.gl_objects_created = gl_objects_created.load(std::memory_order_relaxed);
  counters.gl_objects_deleted = gl_objects_deleted.load(std::memory_order_relaxed);
  return counters;
}

void InjectGlFaultForTesting(GlFault fault, int skip) {
  fault_countdown[static_cast<int>(fault)].store(skip < 0 ? 0 : skip);
}

void ClearGlFaultsForTesting() {
  for (std::atomic<int>& countdown : fault_countdown) countdown.store(-1);
}

}  // namespace glpool
