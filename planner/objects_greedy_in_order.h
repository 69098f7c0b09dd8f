// GREEDY_IN_ORDER shared objects: the classic liveness-based allocator
// (as ONNC and TFLite's in-order strategy describe it).
//  - Walk tensors by first task (ties: larger first, then index).
//  - Release every object whose current tensor ended before this first task.
//  - Best fit among released objects: the smallest one at least as large as
//    the tensor; if none is, the largest one, grown to the tensor's size
//    (growing the largest wastes the least); if none is free, a new object.
#pragma once

#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanGreedyInOrderObjects(const std::vector<ByteRecord>& records);

}  // namespace glpool
