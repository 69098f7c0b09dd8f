#include "planner/offsets_auto.h"

#include <algorithm>
#include <chrono>

#include "planner/lower_bounds.h"
#include "planner/offsets_exact.h"
#include "planner/offsets_greedy_by_breadth.h"
#include "planner/offsets_greedy_by_size.h"
#include "planner/offsets_greedy_in_order.h"
#include "planner/offsets_objects_to_offsets.h"
#include "planner/offsets_strip_packing.h"

namespace glpool {

StatusOr<AutoResult> SolveOffsetsAuto(const OffsetProblem& problem, double budget_seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::vector<ByteRecord> byte_records = problem.units;
  for (size_t i = 0; i < byte_records.size(); ++i) byte_records[i].size = problem.bytes[i];
  const uint64_t lower_bound = OffsetsLowerBound(byte_records);

  AutoResult best;
  bool have = false;
  auto consider = [&](OffsetStrategy strategy, std::vector<uint64_t> offsets) {
    const uint64_t total = ArenaBytes(problem, offsets);
    if (!have || total < best.total_bytes) {
      best.unit_offsets = std::move(offsets);
      best.chosen = strategy;
      best.total_bytes = total;
      have = true;
    }
    return best.total_bytes <= lower_bound;
  };

  best.proven_lower_bound = lower_bound;
  if (consider(OffsetStrategy::kGreedyBySize, OffsetsGreedyBySize(problem.units)) ||
      consider(OffsetStrategy::kStripPacking, OffsetsStripPacking(problem.units)) ||
      consider(OffsetStrategy::kGreedyByBreadth, OffsetsGreedyByBreadth(problem.units)) ||
      consider(OffsetStrategy::kGreedyInOrder, OffsetsGreedyInOrder(problem.units))) {
    best.proven_lower_bound = best.total_bytes;
    return best;
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> from_objects, OffsetsFromSharedObjects(problem.units));
  if (consider(OffsetStrategy::kObjectsToOffsets, std::move(from_objects))) {
    best.proven_lower_bound = best.total_bytes;
    return best;
  }

  const double spent = std::chrono::duration<double>(Clock::now() - start).count();
  const ExactResult exact =
      SolveOffsetsExact(problem, &best.unit_offsets, std::max(0.0, budget_seconds - spent));
  if (exact.total_bytes < best.total_bytes) {
    best.unit_offsets = exact.unit_offsets;
    best.chosen = OffsetStrategy::kExact;
    best.total_bytes = exact.total_bytes;
  }
  best.proven_lower_bound = std::max(lower_bound, exact.proven_lower_bound);
  return best;
}

}  // namespace glpool
