// STRIP_PACKING offsets: best-fit strip packing as in Sekiyama et al. 2018,
// "Profile-guided memory optimization for deep neural networks", which
// treats the arena as a strip (x = time, fixed per tensor; y = offset) and
// packs it with the best-fit heuristic of Burke, Kendall and Whitwell (2004):
//  - keep the skyline of placed tensors over time sections
//    (planner/offsets_skyline.h) and look at its lowest gap (the lowest run);
//  - among the unplaced tensors whose lifetime lies inside that gap, place
//    the best-fitting one on the gap's floor: the longest-lived (it fills
//    the most of the gap), then the largest, then the lowest index;
//  - if none fits, the gap is wasted: raise it to its lower neighbour, so it
//    merges with it, and look again.
// Cost: each step scans the tensors starting inside the lowest run, so
// O(n s) for s time sections at worst (runs are short on networks, long on
// random intervals): it is the one greedy that is not near O(n log n), which
// is why AUTO runs it under its deadline.
// Unlike the gap-fit greedies it never leaves a hole it could still fill
// below a tensor, which is why it wins on some graphs and loses on others.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

// Offsets in the records' size units; records well formed. With a deadline
// that expires before the plan is complete, returns an empty vector.
std::vector<uint64_t> OffsetsStripPacking(const std::vector<ByteRecord>& records,
                                          const Deadline* deadline = nullptr);

}  // namespace glpool
