// GREEDY_BY_SIZE offsets (TFLite's offset-calculation greedy by size):
//  - tensors in decreasing size (ties: lower record index first);
//  - each goes to the best-fit gap among the already-placed tensors whose
//    lifetimes overlap it, or above them all (planner/offsets_gap_fit.h).
// Why it works: big tensors decide the arena; placing them first lets the
// small ones fill the holes they leave.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

// Offsets in the records' size units; records well formed.
// With a deadline that expires before every tensor is placed, returns an
// empty vector (AUTO's use).
std::vector<uint64_t> OffsetsGreedyBySize(const std::vector<ByteRecord>& records,
                                          const Deadline* deadline = nullptr);

}  // namespace glpool
