// EXACT offsets: the smallest arena, proven, or the best found and a proven
// floor when the time budget runs out.
//  - start from an incumbent plan (the caller's, or the better of
//    GREEDY_BY_SIZE and STRIP_PACKING) and the floor OffsetsLowerBound;
//  - probe candidate capacities C ("is there a plan of at most C bytes?")
//    with a portfolio of two complete searches (the skyline one,
//    planner/offsets_arena_search.h, then the canonical-order one,
//    planner/offsets_canonical_search.h, which gets 3/4 of each probe);
//  - in passes whose slice per probe doubles (from 1/64 of the budget):
//    first the floor, with three times the time the last pass's scan took
//    (the floor is the answer on real networks and on most of MiniMalloc's
//    hard instances, and finding or refuting it can take long); then a scan
//    down from the incumbent at distances that double (one grid step, two,
//    four...), since how hard a capacity is does not grow steadily as it
//    shrinks: a tighter one is often decided sooner;
//  - "found" shrinks the incumbent to what was found (often below C),
//    "infeasible" is a proof and lifts the floor above C, "timed out" moves
//    on; both searches resume where they stopped when the same capacity is
//    probed again in a later pass (SearchProgress), so slicing costs little;
//    stop when floor == incumbent (optimal) or time is up;
//  - every plan can be pushed down onto sums of sizes, so an arena is
//    k * g * alignment + bytes_i for some tensor i (g = gcd of the sizes in
//    units): only such capacities are probed, and the floor rounds up to one.
// Record sets so large and long-lived that the search's per-section lists
// would pass 2^23 entries (64 MiB) are not searched: the incumbent is
// returned with the plain floor.
// With alignment a the search works in units of a; tensor i fits under C
// bytes iff its unit offset is at most floor((C - bytes_i) / a), so the topmost
// tensor's padding may stick out of the arena, exactly as total_size counts it.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/offsets_problem.h"

namespace glpool {

struct ExactResult {
  std::vector<uint64_t> unit_offsets;
  uint64_t total_bytes = 0;          // ArenaBytes(problem, unit_offsets)
  uint64_t proven_lower_bound = 0;   // no valid plan is smaller (bytes)
  bool improved = false;             // the search beat the incumbent
  uint64_t probes = 0;               // capacities tried
  uint64_t nodes = 0;                // search nodes over all probes
};

// `incumbent` (unit offsets of a valid plan) may be null. budget_seconds >= 0.
ExactResult SolveOffsetsExact(const OffsetProblem& problem, const std::vector<uint64_t>* incumbent,
                              double budget_seconds);

}  // namespace glpool
