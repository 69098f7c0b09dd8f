// MIN_COST_FLOW shared objects: tensors are chained into objects by a
// min-cost flow.
//  - Network: source -> "free" node of tensor j (cap 1) -> "take" node of
//    tensor i (cap 1) when j ends before i starts, cost max(0, s_i - s_j):
//    i reuses j's object, growing it if needed; source -> take_i, cost s_i:
//    i opens a new object; take_i -> sink (cap 1). Every tensor takes one
//    unit; the flow's chains j -> i -> ... are the objects.
//  - A chain's cost is the sum of its size increases, an upper bound on its
//    real size (its largest tensor); the plan's total is recomputed exactly.
//  - Solved as the equivalent assignment problem (rows: tensors taking an
//    object; columns: tensors releasing one, plus one "new object" column per
//    row) by the primal-dual method: row reduction and a greedy matching on
//    tight edges, then phases of one multi-source Dijkstra on reduced costs,
//    a dual update, and a maximal set of disjoint zero-cost augmenting paths.
//    Edge costs take one value per tensor size, so phases are few (<= ~100
//    on the zoo) and each is O(edges) = O(n^2) at worst.
//  - Up to 600 tensors (the zoo has at most 475) the flow is solved exactly.
//    Beyond, each tensor keeps only its 64 cheapest reuse edges (ties: the
//    predecessor that ended last), so the network has O(n) edges instead of
//    O(n^2): the optimum of that sparser network, still a valid plan.
//  - Costs are 64-bit; sizes so large that a sum of costs could overflow are
//    scaled down first (the plan stays valid, only the optimization coarsens).
#pragma once

#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanMinCostFlowObjects(const std::vector<ByteRecord>& records);

}  // namespace glpool
