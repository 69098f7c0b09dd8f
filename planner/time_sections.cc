#include "planner/time_sections.h"

#include <algorithm>
#include <utility>

namespace glpool {

TimeSections BuildTimeSections(const std::vector<ByteRecord>& records) {
  // A boundary is (task, 0) for "at task" or (task, 1) for "just after task";
  // pairs avoid computing last_task + 1, which could overflow.
  using Boundary = std::pair<TaskId, int>;
  std::vector<Boundary> points;
  points.reserve(2 * records.size());
  for (const ByteRecord& r : records) {
    points.emplace_back(r.first_task, 0);
    points.emplace_back(r.last_task, 1);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());

  auto index_of = [&](const Boundary& b) {
    return static_cast<size_t>(std::lower_bound(points.begin(), points.end(), b) - points.begin());
  };
  TimeSections sections;
  sections.count = points.empty() ? 0 : points.size() - 1;
  sections.first.reserve(records.size());
  sections.last.reserve(records.size());
  for (const ByteRecord& r : records) {
    sections.first.push_back(index_of({r.first_task, 0}));
    sections.last.push_back(index_of({r.last_task, 1}) - 1);
  }
  return sections;
}

std::vector<uint64_t> SectionLoads(const std::vector<ByteRecord>& records, const TimeSections& sections) {
  std::vector<uint64_t> load(sections.count + 1, 0);
  for (size_t i = 0; i < records.size(); ++i) {
    load[sections.first[i]] += records[i].size;
    load[sections.last[i] + 1] -= records[i].size;
  }
  uint64_t running = 0;
  for (size_t s = 0; s < sections.count; ++s) {
    running += load[s];
    load[s] = running;
  }
  load.resize(sections.count);
  return load;
}

uint64_t CoverSlots(const std::vector<ByteRecord>& records) {
  const TimeSections sections = BuildTimeSections(records);
  uint64_t slots = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].size != 0) slots += sections.last[i] - sections.first[i] + 1;
  }
  return slots;
}

}  // namespace glpool
