// An independent check of any plan. It shares no code with the strategies
// (not even their helpers), so a bug there cannot hide itself here. Tests run
// it on every plan; `glpool plan --verify` runs it at run time.
//
// Errors are InvalidArgument Statuses that name the offending records by
// index, and by name when `names` is given (names[i] belongs to records[i]).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

// A shared-objects plan is valid when:
//  - there is one object id per record and every id is < object_sizes.size();
//  - every record is well formed (first_task <= last_task);
//  - every object covers each of its tensors: size <= object size, and for
//    extents in every dimension (w, h and d separately);
//  - no two records whose inclusive task ranges overlap share an object
//    (this includes single-shader exclusivity: an op's input and output both
//    contain the op's task);
//  - every object holds at least one tensor (an unused object is memory that
//    the plan's total counts but nothing uses: a planner bug).
// Size is uint64_t (bytes), Extent2D or Extent3D.
template <typename Size>
Status VerifySharedObjects(const std::vector<UsageRecord<Size>>& records,
                           const ObjectsAssignment<Size>& assignment,
                           const std::vector<std::string>* names = nullptr);

// An arena plan is valid when:
//  - there is one offset per record and every offset is a multiple of
//    `alignment` (>= 1);
//  - every record is well formed and lies inside the arena:
//    offset + size <= total_size (checked without overflow);
//  - no two records whose task ranges overlap overlap in bytes (zero-size
//    records occupy no bytes);
//  - total_size equals the largest offset + size (0 with no records), so the
//    reported arena size is exactly what the plan uses.
Status VerifyOffsets(const std::vector<ByteRecord>& records, const OffsetsAssignment& assignment,
                     uint64_t alignment = 1, const std::vector<std::string>* names = nullptr);

}  // namespace glpool
