// AUTO offsets: the portfolio, smallest arena kept.
//  - run the cheap heuristics, most often best first (GREEDY_BY_SIZE,
//    STRIP_PACKING, GREEDY_BY_BREADTH, GREEDY_IN_ORDER), stopping at the
//    first that reaches the lower bound: nothing can beat it, and on real
//    networks one of them does (all 20 zoo files, in a few ms at most);
//  - otherwise add OBJECTS_TO_OFFSETS, then search (EXACT) with the best
//    plan so far as incumbent and the remaining budget;
//  - keep the smallest arena; ties go to the one run earlier, and EXACT is
//    chosen only when it strictly improved on every heuristic.
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
};

// budget_seconds >= 0 bounds the search step. Errors are those of
// OBJECTS_TO_OFFSETS (PlanSharedObjects).
StatusOr<AutoResult> SolveOffsetsAuto(const OffsetProblem& problem, double budget_seconds);

}  // namespace glpool
