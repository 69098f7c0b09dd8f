// NAIVE shared objects: one object per tensor, sized exactly.
// The baseline every report compares with; never shares, so always valid.
#pragma once

#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanNaiveObjects(const std::vector<ByteRecord>& records);

}  // namespace glpool
