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
#pragma once

#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanGreedyByBreadthObjects(const std::vector<ByteRecord>& records);

}  // namespace glpool
