// Plans: what the planner produces.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/usage_record.h"

namespace glpool {

// Shared objects: tensor i lives in object object_ids[i]; object k has
// object_sizes[k] (bytes, or a texture extent), fixed for its lifetime.
template <typename Size>
struct ObjectsAssignment {
  std::vector<size_t> object_ids;
  std::vector<Size> object_sizes;
};

// One arena: tensor i lives at bytes [offsets[i], offsets[i] + size_i).
struct OffsetsAssignment {
  std::vector<uint64_t> offsets;
  uint64_t total_size = 0;
};

}  // namespace glpool
