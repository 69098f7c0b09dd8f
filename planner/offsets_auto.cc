#include "planner/offsets_auto.h"

#include <algorithm>

#include "planner/budget.h"
#include "planner/lower_bounds.h"
#include "planner/objects_planner.h"
#include "planner/offsets_exact.h"
#include "planner/offsets_greedy_by_breadth.h"
#include "planner/offsets_greedy_by_size.h"
#include "planner/offsets_greedy_in_order.h"
#include "planner/offsets_objects_to_offsets.h"
#include "planner/offsets_repair.h"
#include "planner/offsets_strip_packing.h"
#include "planner/verifier.h"

namespace glpool {

StatusOr<AutoResult> SolveOffsetsAuto(const OffsetProblem& problem, double budget_seconds) {
  const Deadline deadline(budget_seconds);
  std::vector<ByteRecord> byte_records = problem.units;
  for (size_t i = 0; i < byte_records.size(); ++i) byte_records[i].size = problem.bytes[i];
  const uint64_t lower_bound = OffsetsLowerBound(byte_records);

  AutoResult best;
  bool have = false;
  // Keeps `offsets` when it is a smaller verified plan (an empty vector is a
  // member the deadline cut off). True when nothing can beat the best plan
  // any more, or no time is left to try.
  auto consider = [&](OffsetStrategy strategy, std::vector<uint64_t> offsets) {
    if (offsets.size() == problem.units.size()) {
      const uint64_t total = ArenaBytes(problem, offsets);
      const OffsetsAssignment plan{offsets, ArenaUnits(problem.units, offsets)};
      if ((!have || total < best.total_bytes) && VerifyOffsets(problem.units, plan).ok()) {
        best.unit_offsets = std::move(offsets);
        best.chosen = strategy;
        best.total_bytes = total;
        best.repaired = false;
        have = true;
      }
    }
    return (have && best.total_bytes <= lower_bound) || deadline.ExpiredNow();
  };

  best.proven_lower_bound = lower_bound;
  auto finish = [&] {
    if (best.total_bytes <= lower_bound) best.proven_lower_bound = best.total_bytes;
    return best;
  };
  // Both best-fit greedies always run (each O(n log n) when few tensors are
  // live at once), whatever the budget: neither wins on every set (breadth
  // on seed 1's random sets, size on seed 2's), and AUTO must never be worse
  // than the better of them. Then, only while time lasts: repair, which
  // improves whatever time it gets (anytime), before the members that give
  // nothing when the deadline cuts them.
  consider(OffsetStrategy::kGreedyByBreadth, OffsetsGreedyByBreadth(problem.units));
  if (consider(OffsetStrategy::kGreedyBySize, OffsetsGreedyBySize(problem.units))) return finish();
  // Repair the best plan so far with half the time left (the other half
  // stays for the members below, which win on some small sets).
  {
    const Deadline half(deadline.SecondsLeft() / 2);
    std::vector<uint64_t> repaired = best.unit_offsets;
    RepairOffsets(problem.units, &repaired, OffsetsLowerBound(problem.units), half);
    const OffsetStrategy member = best.chosen;
    const uint64_t before = best.total_bytes;
    const bool stop = consider(member, std::move(repaired));
    best.repaired = best.total_bytes < before;
    if (stop) return finish();
  }
  if (consider(OffsetStrategy::kStripPacking, OffsetsStripPacking(problem.units, &deadline)) ||
      consider(OffsetStrategy::kGreedyInOrder, OffsetsGreedyInOrder(problem.units, &deadline))) {
    return finish();
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> from_objects,
                          OffsetsFromSharedObjects(problem.units, deadline.SecondsLeft()));
  if (consider(OffsetStrategy::kObjectsToOffsets, std::move(from_objects))) return finish();

  const ExactResult exact = SolveOffsetsExact(problem, &best.unit_offsets, deadline.SecondsLeft());
  if (exact.total_bytes < best.total_bytes) {
    best.unit_offsets = exact.unit_offsets;
    best.chosen = OffsetStrategy::kExact;
    best.total_bytes = exact.total_bytes;
    best.repaired = false;
  }
  best.proven_lower_bound = std::max(lower_bound, exact.proven_lower_bound);
  return best;
}

}  // namespace glpool
