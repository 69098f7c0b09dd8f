#include "planner/objects_naive.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanNaiveObjects(const std::vector<ByteRecord>& records) {
  ObjectsAssignment<uint64_t> out;
  for (size_t i = 0; i < records.size(); ++i) {
    out.object_ids.push_back(i);
    out.object_sizes.push_back(records[i].size);
  }
  return out;
}

}  // namespace glpool
