// GREEDY_IN_ORDER offsets: what a simple arena allocator would do at run time.
//  - tensors in order of first use (ties: larger first, then lower index);
//  - each goes to the best-fit gap among the already-placed tensors whose
//    lifetimes overlap it, or above them all (planner/offsets_gap_fit.h).
// Since tensors come in order of first use, the overlapping placed tensors are
// exactly those still live when it is created: this is best-fit malloc/free
// over the execution order, with the arena growing at the top when no hole
// fits.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

// Offsets in the records' size units; records well formed. Empty when
// `deadline` (if any) expires first (AUTO runs it under its budget).
std::vector<uint64_t> OffsetsGreedyInOrder(const std::vector<ByteRecord>& records,
                                    const Deadline* deadline = nullptr);

}  // namespace glpool
