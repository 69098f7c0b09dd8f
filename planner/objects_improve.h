// Local search for shared-objects plans of byte sizes. It starts from any
// valid plan and only ever lowers its total (the sum over objects of the
// largest tensor in each), so AUTO can run it after its greedy members.
// It descends to a local optimum under two moves, best move per pair or
// object first:
//  - relocate: move one tensor to another object that is free for its whole
//    range, when that lowers the total;
//  - exchange tails: for objects A and B cut at task boundaries where both
//    are idle, swap the tails (A's tensors after the cut go to B and B's to
//    A); validity needs only the two boundary pairs to be apart in time.
//    This is what lets big tensors gather in big objects.
// At most 64 rounds of both moves over every object (each round lowers the
// total or ends the descent), so the work is bounded whatever the records;
// a deadline, checked between moves, may stop it sooner (every move leaves
// a valid plan). A round costs O(m^2 k) for m objects of k tensors.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

// `ids` maps tensor -> object (any numbering, valid plan); rewritten in
// place, objects renumbered densely. Returns the new total.
uint64_t ImproveObjects(const std::vector<ByteRecord>& records, std::vector<size_t>* ids,
                        const Deadline* deadline = nullptr);

}  // namespace glpool
