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
// Cost: the lowest section comes from a segment tree (O(log s) per section
// a move changes); each step then scans the lowest run and the tensors
// starting inside it, so O(n (r + t + log s)) for runs of r sections
// holding t starts: runs shrink as the floor rises, but the first ones span
// most of the timeline, so up to O(n^2) at worst (23 ms at 10,000 tensors,
// 0.5 s at 50,000, bench/reports/planner_scale.md): the one greedy that is
// not near O(n log n), which is why AUTO runs it under its deadline.
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
