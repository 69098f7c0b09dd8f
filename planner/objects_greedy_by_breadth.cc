#include "planner/objects_greedy_by_breadth.h"

#include <algorithm>
#include <set>

#include "planner/object_timelines.h"
#include "planner/objects_common.h"
#include "planner/range_minimum.h"

namespace glpool {
namespace {

constexpr size_t kNone = SIZE_MAX;

// Sum of live sizes at each start task (ascending), by a sweep.
std::vector<uint64_t> Breadths(const std::vector<ByteRecord>& records,
                               const std::vector<TaskId>& starts) {
  std::vector<uint64_t> add(starts.size() + 1, 0), sub(starts.size() + 1, 0);
  for (const ByteRecord& r : records) {
    const size_t a = std::lower_bound(starts.begin(), starts.end(), r.first_task) - starts.begin();
    const size_t b = std::upper_bound(starts.begin(), starts.end(), r.last_task) - starts.begin();
    add[a] += r.size;  // live at starts [a, b)
    sub[b] += r.size;
  }
  std::vector<uint64_t> breadth(starts.size());
  uint64_t live = 0;
  for (size_t t = 0; t < starts.size(); ++t) {
    live += add[t];
    live -= sub[t];
    breadth[t] = live;
  }
  return breadth;
}

}  // namespace

ObjectsAssignment<uint64_t> PlanGreedyByBreadthObjects(const std::vector<ByteRecord>& records) {
  std::vector<TaskId> starts;
  for (const ByteRecord& r : records) starts.push_back(r.first_task);
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  const std::vector<uint64_t> breadth = Breadths(records, starts);
  std::vector<size_t> task_order(starts.size());
  for (size_t t = 0; t < task_order.size(); ++t) task_order[t] = t;
  std::stable_sort(task_order.begin(), task_order.end(),
                   [&](size_t a, size_t b) { return breadth[a] > breadth[b]; });
  std::vector<size_t> rank(starts.size());
  for (size_t k = 0; k < task_order.size(); ++k) rank[task_order[k]] = k;

  // Visiting tasks by rank and, at each, its unassigned live tensors by size
  // is visiting tensors by (first visit, size order).
  const RangeMinimum first_visit(rank);
  std::vector<size_t> visit(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const size_t a =
        std::lower_bound(starts.begin(), starts.end(), records[i].first_task) - starts.begin();
    const size_t b =
        std::upper_bound(starts.begin(), starts.end(), records[i].last_task) - starts.begin();
    visit[i] = first_visit.Min(a, b - 1);  // a < b: the record's own start is in range
  }
  std::vector<size_t> order = OrderBySizeDesc(records);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return visit[a] < visit[b]; });

  std::vector<size_t> ids(records.size(), kNone);
  std::vector<uint64_t> object_size;
  std::set<std::pair<uint64_t, size_t>> by_size;  // (size, object)
  ObjectTimelines timelines;
  for (size_t i : order) {
    const ByteRecord& r = records[i];
    // Best fit: the smallest free object at least as large (lowest id on a
    // tie), else the largest free one (lowest id on a tie). Walking the
    // objects in size order stops at the first free one.
    size_t best = kNone;
    for (auto it = by_size.lower_bound({r.size, 0}); it != by_size.end(); ++it) {
      if (timelines.IsFree(it->second, r.first_task, r.last_task)) {
        best = it->second;
        break;
      }
    }
    if (best == kNone) {
      for (auto it = by_size.lower_bound({r.size, 0}); it != by_size.begin();) {
        --it;
        if (best != kNone && it->first != object_size[best]) break;
        if (timelines.IsFree(it->second, r.first_task, r.last_task)) best = it->second;
      }
    }
    if (best == kNone) {
      best = timelines.Add();
      object_size.push_back(r.size);
      by_size.insert({r.size, best});
    } else if (object_size[best] < r.size) {
      by_size.erase({object_size[best], best});
      object_size[best] = r.size;
      by_size.insert({r.size, best});
    }
    timelines.Occupy(best, r.first_task, r.last_task);
    ids[i] = best;
  }
  return AssignmentFromIds(records, ids);
}

}  // namespace glpool
