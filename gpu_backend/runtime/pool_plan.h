// The runtime's view of the planner: one `--strategy NAME` for any object
// kind. Every plan returned here has passed the planner's independent
// verifier; a plan that fails it is an internal error, never used.
//
// Names: buffers accept the shared-objects strategies; the arena accepts
// the offset strategies, plus naive/equality/min_cost_flow, which it lays
// out end to end (objects_to_offsets of that plan); textures accept naive,
// equality, greedy_in_order, greedy_by_size and auto (the best of those).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "planner/usage_record.h"

namespace glpool {

struct ObjectPoolPlan {
  std::vector<size_t> object_of;      // per record
  std::vector<uint64_t> object_bytes;  // per object (buffers)
  std::vector<Extent2D> object_extents;  // per object (textures)
  std::string chosen;                  // the strategy that produced it
  uint64_t lower_bound = 0;            // bytes (buffers) or texels (textures)
};

struct ArenaPlan {
  std::vector<uint64_t> offsets;  // per record
  uint64_t total_bytes = 0;
  std::string chosen;
  uint64_t lower_bound = 0;
};

// The strategy names each object kind accepts ("buffers", "textures", "arena").
std::vector<std::string> StrategyNamesFor(const std::string& object_kind);

StatusOr<ObjectPoolPlan> PlanBufferPool(const std::vector<ByteRecord>& records, const std::string& strategy);
StatusOr<ObjectPoolPlan> PlanTexturePool(const std::vector<Extent2DRecord>& records, const std::string& strategy);
StatusOr<ArenaPlan> PlanArena(const std::vector<ByteRecord>& records, const std::string& strategy,
                              uint64_t alignment, double budget_seconds);

}  // namespace glpool
