// OBJECTS_TO_OFFSETS: a shared-objects plan laid end to end in the arena.
//  - plan shared objects with PlanSharedObjects(kAuto) (planner/
//    objects_planner.h) on the sizes in alignment units;
//  - give object k the offset sum of the sizes of objects 0..k-1; every
//    tensor goes to its object's offset (zero-size tensors to 0).
// Why: it is valid for the same reason the objects plan is (tensors sharing
// an object never overlap in time), costs nothing extra, and lets one arena
// replace a pool of buffers. Its total equals the objects plan's total, so it
// is never below the shared-objects lower bound; AUTO keeps it only when it
// beats the offset heuristics.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/status.h"
#include "planner/usage_record.h"

namespace glpool {

// Offsets in the records' size units; records well formed. Errors are those
// of PlanSharedObjects.
// `budget_seconds` is the shared-objects AUTO's (unset: its default).
StatusOr<std::vector<uint64_t>> OffsetsFromSharedObjects(
    const std::vector<ByteRecord>& records, std::optional<double> budget_seconds = std::nullopt);

}  // namespace glpool
