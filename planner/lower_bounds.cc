#include "planner/lower_bounds.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <set>
#include <utility>

namespace glpool {
namespace {

template <typename Record>
std::vector<ByteRecord> ToTexelRecords(const std::vector<Record>& records) {
  std::vector<ByteRecord> out;
  out.reserve(records.size());
  for (const Record& r : records) out.push_back({Texels(r.size), r.first_task, r.last_task});
  return out;
}

}  // namespace

uint64_t OffsetsLowerBound(const std::vector<ByteRecord>& records) {
  // Sweep: +size at first_task, -size just after last_task.
  struct Event {
    TaskId task;
    bool end;
    uint64_t size;
  };
  std::vector<Event> events;
  events.reserve(2 * records.size());
  for (const ByteRecord& r : records) {
    if (r.first_task > r.last_task) continue;
    events.push_back({r.first_task, false, r.size});
    events.push_back({r.last_task, true, r.size});
  }
  // At equal tasks, starts come before ends: ranges are inclusive.
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.task != b.task ? a.task < b.task : (!a.end && b.end);
  });
  uint64_t live = 0, best = 0;
  for (const Event& e : events) {
    if (e.end) {
      live -= e.size;
    } else {
      live += e.size;
      best = std::max(best, live);
    }
  }
  return best;
}

std::vector<uint64_t> PositionalMaxima(const std::vector<ByteRecord>& records) {
  // Sweep the start tasks in order with the live sizes in a multiset, so a
  // start task costs its live count plus log n per record entering or
  // leaving: O(n log n + sum of live counts at start tasks).
  std::vector<size_t> by_first;
  by_first.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].first_task <= records[i].last_task) by_first.push_back(i);
  }
  std::sort(by_first.begin(), by_first.end(),
            [&](size_t a, size_t b) { return records[a].first_task < records[b].first_task; });
  using End = std::pair<TaskId, uint64_t>;  // (last task, size)
  std::priority_queue<End, std::vector<End>, std::greater<End>> ends;
  std::multiset<uint64_t, std::greater<uint64_t>> live;
  std::vector<uint64_t> kth_max;  // kth_max[k] = L_{k+1}
  for (size_t next = 0; next < by_first.size();) {
    const TaskId t = records[by_first[next]].first_task;
    while (!ends.empty() && ends.top().first < t) {
      live.erase(live.find(ends.top().second));
      ends.pop();
    }
    for (; next < by_first.size() && records[by_first[next]].first_task == t; ++next) {
      const ByteRecord& r = records[by_first[next]];
      live.insert(r.size);
      ends.push({r.last_task, r.size});
    }
    if (kth_max.size() < live.size()) kth_max.resize(live.size(), 0);
    size_t k = 0;
    for (uint64_t size : live) {
      kth_max[k] = std::max(kth_max[k], size);
      ++k;
    }
  }
  return kth_max;
}

uint64_t SharedObjectsLowerBound(const std::vector<ByteRecord>& records) {
  uint64_t total = 0;
  for (uint64_t s : PositionalMaxima(records)) total += s;
  return total;
}

uint64_t SharedObjectsLowerBoundTexels(const std::vector<Extent2DRecord>& records) {
  return SharedObjectsLowerBound(ToTexelRecords(records));
}

uint64_t SharedObjectsLowerBoundTexels(const std::vector<Extent3DRecord>& records) {
  return SharedObjectsLowerBound(ToTexelRecords(records));
}

std::vector<ByteRecord> TexelRecords(const std::vector<Extent2DRecord>& records) {
  return ToTexelRecords(records);
}

std::vector<ByteRecord> TexelRecords(const std::vector<Extent3DRecord>& records) {
  return ToTexelRecords(records);
}

uint64_t NaiveBytes(const std::vector<ByteRecord>& records) {
  uint64_t total = 0;
  for (const ByteRecord& r : records) total += r.size;
  return total;
}

}  // namespace glpool
