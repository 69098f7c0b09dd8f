#include "planner/lower_bounds.h"

#include <algorithm>

namespace glpool {
namespace {

bool Live(const ByteRecord& r, TaskId t) { return r.first_task <= t && t <= r.last_task; }

std::vector<TaskId> StartTasks(const std::vector<ByteRecord>& records) {
  std::vector<TaskId> starts;
  starts.reserve(records.size());
  for (const ByteRecord& r : records) {
    if (r.first_task <= r.last_task) starts.push_back(r.first_task);
  }
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  return starts;
}

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
  std::vector<size_t> by_size(records.size());
  for (size_t i = 0; i < by_size.size(); ++i) by_size[i] = i;
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](size_t a, size_t b) { return records[a].size > records[b].size; });
  std::vector<uint64_t> kth_max;  // kth_max[k] = L_{k+1}
  for (TaskId t : StartTasks(records)) {
    size_t k = 0;
    for (size_t i : by_size) {
      if (!Live(records[i], t)) continue;
      if (k == kth_max.size()) kth_max.push_back(0);
      kth_max[k] = std::max(kth_max[k], records[i].size);
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
