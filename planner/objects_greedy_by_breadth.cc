#include "planner/objects_greedy_by_breadth.h"

#include <algorithm>

#include "planner/object_timelines.h"
#include "planner/objects_common.h"

namespace glpool {

ObjectsAssignment<uint64_t> PlanGreedyByBreadthObjects(const std::vector<ByteRecord>& records) {
  const std::vector<size_t> by_size = OrderBySizeDesc(records);
  std::vector<TaskId> starts;
  for (const ByteRecord& r : records) starts.push_back(r.first_task);
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  std::vector<uint64_t> breadth(starts.size(), 0);
  for (size_t t = 0; t < starts.size(); ++t) {
    for (const ByteRecord& r : records) {
      if (r.first_task <= starts[t] && starts[t] <= r.last_task) breadth[t] += r.size;
    }
  }
  std::vector<size_t> task_order(starts.size());
  for (size_t t = 0; t < task_order.size(); ++t) task_order[t] = t;
  std::stable_sort(task_order.begin(), task_order.end(),
                   [&](size_t a, size_t b) { return breadth[a] > breadth[b]; });

  constexpr size_t kNone = SIZE_MAX;
  std::vector<size_t> ids(records.size(), kNone);
  std::vector<uint64_t> object_size;
  ObjectTimelines timelines;
  for (size_t t : task_order) {
    for (size_t i : by_size) {
      const ByteRecord& r = records[i];
      if (ids[i] != kNone || r.first_task > starts[t] || starts[t] > r.last_task) continue;
      size_t best = kNone;
      for (size_t o = 0; o < object_size.size(); ++o) {
        if (!timelines.IsFree(o, r.first_task, r.last_task)) continue;
        if (best == kNone) {
          best = o;
        } else if (object_size[o] >= r.size) {
          if (object_size[best] < r.size || object_size[o] < object_size[best]) best = o;
        } else if (object_size[best] < r.size && object_size[o] > object_size[best]) {
          best = o;
        }
      }
      if (best == kNone) {
        best = timelines.Add();
        object_size.push_back(r.size);
      }
      object_size[best] = std::max(object_size[best], r.size);
      timelines.Occupy(best, r.first_task, r.last_task);
      ids[i] = best;
    }
  }
  return AssignmentFromIds(records, ids);
}

}  // namespace glpool
