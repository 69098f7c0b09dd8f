// The arena problem as the offset strategies see it, after PlanOffsets has
// validated the records and applied the alignment.
//
// Why units: with alignment a, offsets must be multiples of a, so the
// heuristics pack sizes rounded up to a multiple of a, divided by a. They never
// see bytes or alignment, and a = 1 is simply the identity. Only EXACT looks at
// the byte sizes, because the true arena size max(offset + size) lets the
// topmost tensor leave its padding outside the arena.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/usage_record.h"

namespace glpool {

struct OffsetProblem {
  std::vector<ByteRecord> units;  // units[i].size = ceil(bytes[i] / alignment)
  std::vector<uint64_t> bytes;    // the records' sizes in bytes
  uint64_t alignment = 1;         // >= 1
};

// Precondition: alignment >= 1, records well formed (first_task <= last_task)
// and the padded sizes sum to less than 2^64 (PlanOffsets checks all three).
OffsetProblem MakeOffsetProblem(const std::vector<ByteRecord>& records, uint64_t alignment);

// The arena a plan in units needs, in bytes: max over i of
// unit_offsets[i] * alignment + bytes[i] (0 with no records).
uint64_t ArenaBytes(const OffsetProblem& problem, const std::vector<uint64_t>& unit_offsets);

// unit_offsets scaled to bytes.
std::vector<uint64_t> ByteOffsets(const OffsetProblem& problem,
                                  const std::vector<uint64_t>& unit_offsets);

// Max over i of unit_offsets[i] + units[i].size: the arena in units.
uint64_t ArenaUnits(const std::vector<ByteRecord>& units, const std::vector<uint64_t>& unit_offsets);

}  // namespace glpool
