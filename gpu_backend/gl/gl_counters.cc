#include "gpu_backend/gl/gl_counters.h"

#include <atomic>

namespace glpool {
namespace {

std::atomic<uint64_t> shader_compiles{0};
std::atomic<uint64_t> program_binary_loads{0};
std::atomic<uint64_t> pool_plans{0};
std::atomic<uint64_t> gpu_reads{0};

}  // namespace

namespace gl {
void CountShaderCompile() { shader_compiles.fetch_add(1, std::memory_order_relaxed); }
void CountProgramBinaryLoad() { program_binary_loads.fetch_add(1, std::memory_order_relaxed); }
void CountPoolPlan() { pool_plans.fetch_add(1, std::memory_order_relaxed); }
void CountGpuRead() { gpu_reads.fetch_add(1, std::memory_order_relaxed); }
}  // namespace gl

RuntimeCounters GetRuntimeCounters() {
  RuntimeCounters counters;
  counters.shader_compiles = shader_compiles.load(std::memory_order_relaxed);
  counters.program_binary_loads = program_binary_loads.load(std::memory_order_relaxed);
  counters.pool_plans = pool_plans.load(std::memory_order_relaxed);
  counters.gpu_reads = gpu_reads.load(std::memory_order_relaxed);
  return counters;
}

}  // namespace glpool
