#include "planner/objects_equality.h"

#include <functional>
#include <map>
#include <queue>
#include <set>

#include "planner/objects_common.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanEqualityObjects(const std::vector<ByteRecord>& records) {
  std::vector<size_t> ids(records.size());
  std::map<uint64_t, std::set<size_t>> free_by_size;
  using Busy = std::pair<TaskId, size_t>;  // (last task, object)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
  std::vector<uint64_t> object_size;
  for (size_t i : OrderByFirstTask(records)) {
    const ByteRecord& r = records[i];
    while (!busy.empty() && busy.top().first < r.first_task) {
      const size_t object = busy.top().second;
      free_by_size[object_size[object]].insert(object);
      busy.pop();
    }
    size_t object;
    auto it = free_by_size.find(r.size);
    if (it != free_by_size.end() && !it->second.empty()) {
      object = *it->second.begin();
      it->second.erase(it->second.begin());
    } else {
      object = object_size.size();
      object_size.push_back(r.size);
    }
    ids[i] = object;
    busy.push({r.last_task, object});
  }
  return AssignmentFromIds(records, ids);
}

}  // namespace glpool
