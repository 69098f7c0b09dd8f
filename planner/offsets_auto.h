// AUTO offsets: an anytime portfolio, smallest verified arena kept.
//  - GREEDY_BY_BREADTH, GREEDY_BY_SIZE and GREEDY_IN_ORDER always run (each
//    near O(n log n)), so there is a plan whatever the budget and AUTO is
//    never worse than the best greedy member (none wins on every set);
//  - between the first and the other two, when the budget holds more than
//    four times what the first took: PEAK_FIRST (planner/offsets_peak_first.h)
//    with 3/4 of the time left beyond the other two's; a plan at the lower
//    bound ends AUTO there (the other two could not beat it);
//  - then, while the budget lasts: STRIP_PACKING (O(n s), cut off by the
//    deadline); repair (planner/offsets_repair.h: re-packing the
//    neighbourhood of the tensors at the top of each start plan, peak
//    first's, strip packing's and greedy by breadth's, a local search that only ever
//    lowers the arena) in slices that double, for 3/4 of the time left
//    (repair from either start wins on some sets:
//    bench/reports/planner_scale.md);
//  - then OBJECTS_TO_OFFSETS (shared-objects AUTO with the time left), and
//    search (EXACT) with the best plan so far as incumbent and the time left.
//    Each starts only while more time is left than the three greedy members
//    took: both do work of about that size before they first look at the
//    clock, so on large sets starting them late would overrun the budget.
//    When a quarter of the time left after strip packing cannot hold them,
//    repair gets all of it;
//  - stop at the first plan that reaches the lower bound: nothing can beat
//    it, and on real networks one of the heuristics does (all 20 zoo files);
//  - keep the smallest arena that passes the verifier; ties go to the one
//    run earlier, and EXACT is chosen only when it strictly improved.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "planner/offsets_planner.h"
#include "planner/offsets_problem.h"

namespace glpool {

struct AutoResult {
  std::vector<uint64_t> unit_offsets;
  OffsetStrategy chosen = OffsetStrategy::kGreedyBySize;
  uint64_t total_bytes = 0;
  uint64_t proven_lower_bound = 0;  // bytes; == total_bytes when optimal
  bool repaired = false;            // repair lowered the chosen member's plan
};

// budget_seconds >= 0 bounds the search step. Errors are those of
// OBJECTS_TO_OFFSETS (PlanSharedObjects).
StatusOr<AutoResult> SolveOffsetsAuto(const OffsetProblem& problem, double budget_seconds);

}  // namespace glpool
