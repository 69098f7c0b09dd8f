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
//  - Growth is always 0 (every object is at least as large as every tensor
//    still to place, see the .cc), so a tensor's best object is the nearest
//    free one, ties to the lowest id: planner/nearest_free_object.h answers
//    that in O(log n) without visiting the objects.
//  - Scale: the pairs are looked for among the position's 64 largest
//    unassigned tensors (a window that refills as they are placed). Each
//    placement re-checks the window against the changed object (O(1) each,
//    O(log n) where the object may now be the better one); a tensor that the
//    placed one now blocks from its best object asks the index again.
//    O(n (64 + log n) log n) at worst, whatever the object count (before the
//    index: O(n (64 + m) log n) for m objects).
#pragma once

#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanGreedyBySizeObjects(const std::vector<ByteRecord>& records);

}  // namespace glpool
