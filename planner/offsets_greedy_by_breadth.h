// GREEDY_BY_BREADTH offsets (TFLite's offset-calculation greedy by breadth):
//  - a task's breadth is the sum of the sizes of the tensors live at it;
//  - tasks in decreasing breadth (ties: earlier task first); at each task,
//    its not yet placed live tensors in decreasing size (ties: lower index);
//  - each goes to the best-fit gap among the already-placed tensors whose
//    lifetimes overlap it, or above them all (planner/offsets_gap_fit.h).
// Why: the widest task is where the lower bound comes from; packing its
// tensors first, tightly, tends to keep the arena at that bound.
// Tasks are handled as time sections (planner/time_sections.h): tasks with
// the same live set are one. Each tensor's first visited section comes from
// a range minimum, so the order costs O(n log n) and the plan that of
// gap fit (planner/offsets_gap_fit.h).
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

// Offsets in the records' size units; records well formed. Empty when
// `deadline` (if any) expires first (AUTO runs it under its budget).
std::vector<uint64_t> OffsetsGreedyByBreadth(const std::vector<ByteRecord>& records,
                                    const Deadline* deadline = nullptr);

}  // namespace glpool
