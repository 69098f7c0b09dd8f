#include "planner/objects_greedy_in_order.h"

#include <functional>
#include <queue>
#include <set>

#include "planner/objects_common.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanGreedyInOrderObjects(const std::vector<ByteRecord>& records) {
  std::vector<size_t> ids(records.size());
  std::set<std::pair<uint64_t, size_t>> free_objects;  // (size, object)
  using Busy = std::pair<TaskId, size_t>;              // (last task, object)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
  std::vector<uint64_t> object_size;
  for (size_t i : OrderByFirstTask(records)) {
    const ByteRecord& r = records[i];
    while (!busy.empty() && busy.top().first < r.first_task) {
      free_objects.insert({object_size[busy.top().second], busy.top().second});
      busy.pop();
    }
    size_t object;
    auto fit = free_objects.lower_bound({r.size, 0});
    if (fit == free_objects.end() && !free_objects.empty()) fit = std::prev(free_objects.end());
    if (fit != free_objects.end()) {
      object = fit->second;
      free_objects.erase(fit);
      if (object_size[object] < r.size) object_size[object] = r.size;
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
