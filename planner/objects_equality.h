// EQUALITY shared objects (ailia's "reuse interstage"): a tensor reuses only
// an object of exactly its size.
//  - Walk tensors by first task (ties: larger first, then index).
//  - Before placing a tensor, release every object whose current tensor's
//    last task is before this tensor's first task.
//  - Take a released object of exactly the same size (the lowest id), else
//    create one. Objects never grow, so no size is ever wasted inside an
//    object; the price is objects that could have been shared across sizes.
#pragma once

#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanEqualityObjects(const std::vector<ByteRecord>& records);

}  // namespace glpool
