// GREEDY_BY_BREADTH shared objects (TFLite's description): the busiest tasks
// decide first, because their live tensors are the ones that force objects.
//  - A task's breadth is the sum of the sizes of the tensors live at it; only
//    tasks where some tensor starts matter (every other live set is a subset
//    of one of theirs).
//  - Visit tasks by breadth, largest first (ties: earlier task first); at each,
//    visit its not-yet-assigned live tensors by size, largest first.
//  - Best fit among objects free for the tensor's whole range: the smallest
//    one at least as large; if none is, the largest one, grown; if none is
//    free, a new object.
// Cost: breadths by a sweep and each tensor's first visited task by a range
// minimum (sparse table), O(n log n); best fit walks the objects in size
// order from the tensor's size and stops at the first free one, so a tensor
// costs O(log n) per object it skips: O(n m log n) at worst for m objects,
// near O(n log n) when the best fit is found early, as it usually is.
#pragma once

#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanGreedyByBreadthObjects(const std::vector<ByteRecord>& records);

}  // namespace glpool
