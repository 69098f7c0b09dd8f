// GREEDY_BY_SIZE shared objects, in the improved distance-priority form that
// TFLite's article describes (positional maxima).
//  - Positional maxima P_1 >= P_2 >= ... are the L_k of the shared-objects
//    lower bound. A tensor's position is the first k with P_k <= its size:
//    the slot of the bound it competes for. Positions are handled in order,
//    so tensors that can only go into big objects decide first.
//  - Within one position, repeatedly take the (tensor, object) pair, over the
//    position's unassigned tensors and the objects free for the tensor's
//    whole range, that grows the object least, then lies nearest in time to
//    the object's other tensors (small gaps keep long free stretches intact
//    for later tensors), then has the larger tensor, then the lower index.
//  - If no unassigned tensor of the position has a free object, the largest
//    (then earliest) one opens a new object.
//  - Scale: the pairs are looked for among the position's 64 largest
//    unassigned tensors (a window that refills as they are placed). Each
//    placement re-evaluates the window against the changed object; only a
//    tensor that the placed one now blocks from its best object looks at
//    every object again (an object only improves for the tensors it stays
//    free for). O(n (64 + m) log n) at worst for m objects.
#pragma once

#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanGreedyBySizeObjects(const std::vector<ByteRecord>& records);

}  // namespace glpool
