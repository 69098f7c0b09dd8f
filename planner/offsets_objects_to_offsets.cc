#include "planner/offsets_objects_to_offsets.h"

#include <string>

#include "planner/objects_planner.h"

namespace glpool {

StatusOr<std::vector<uint64_t>> OffsetsFromSharedObjects(const std::vector<ByteRecord>& records,
                                                         std::optional<double> budget_seconds) {
  ObjectOptions options;
  options.budget_seconds = budget_seconds;
  GLPOOL_ASSIGN_OR_RETURN(ObjectsPlan plan,
                          PlanSharedObjects(records, ObjectStrategy::kAuto, options));
  const ObjectsAssignment<uint64_t>& a = plan.assignment;
  if (a.object_ids.size() != records.size()) {
    return InternalError("shared-objects plan has " + std::to_string(a.object_ids.size()) +
                         " object ids for " + std::to_string(records.size()) + " records");
  }
  std::vector<uint64_t> object_offset(a.object_sizes.size(), 0);
  uint64_t next = 0;
  for (size_t k = 0; k < a.object_sizes.size(); ++k) {
    object_offset[k] = next;
    next += a.object_sizes[k];
  }
  std::vector<uint64_t> offsets(records.size(), 0);
  for (size_t i = 0; i < records.size(); ++i) {
    if (a.object_ids[i] >= object_offset.size()) {
      return InternalError("shared-objects plan gives record " + std::to_string(i) +
                           " object " + std::to_string(a.object_ids[i]) + " of " +
                           std::to_string(object_offset.size()));
    }
    if (records[i].size != 0) offsets[i] = object_offset[a.object_ids[i]];
  }
  return offsets;
}

}  // namespace glpool
