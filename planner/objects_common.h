// Small helpers shared by the byte shared-objects strategies (never by the
// verifier).
#pragma once

#include <cstdint>
#include <vector>

#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

// Builds the assignment for tensor -> object ids: each object gets the size
// of its largest tensor, and ids are renumbered densely in order of first
// appearance by tensor index (unused ids vanish).
ObjectsAssignment<uint64_t> AssignmentFromIds(const std::vector<ByteRecord>& records,
                                              const std::vector<size_t>& ids);

// Sum of object sizes.
uint64_t SumObjectSizes(const ObjectsAssignment<uint64_t>& assignment);

// Tensor indices sorted by size descending, ties by first task, then index:
// the common "big first" order.
std::vector<size_t> OrderBySizeDesc(const std::vector<ByteRecord>& records);

// Tensor indices sorted by first task, ties by size descending, then index.
std::vector<size_t> OrderByFirstTask(const std::vector<ByteRecord>& records);

}  // namespace glpool
