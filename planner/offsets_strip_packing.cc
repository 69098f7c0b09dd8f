#include "planner/offsets_strip_packing.h"

#include <algorithm>

#include "planner/offsets_skyline.h"
#include "planner/time_sections.h"

namespace glpool {

std::vector<uint64_t> OffsetsStripPacking(const std::vector<ByteRecord>& records,
                                          const Deadline* deadline) {
  const TimeSections sections = BuildTimeSections(records);
  Skyline skyline(SectionLoads(records, sections), /*undoable=*/false);
  std::vector<uint64_t> offsets(records.size(), 0);
  // Unplaced non-empty tensors by first section, in index order.
  std::vector<std::vector<size_t>> starts(sections.count);
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].size != 0) starts[sections.first[i]].push_back(i);
  }
  auto better = [&](size_t a, size_t b) {  // a fits the gap better than b
    const size_t span_a = sections.last[a] - sections.first[a];
    const size_t span_b = sections.last[b] - sections.first[b];
    if (span_a != span_b) return span_a > span_b;
    if (records[a].size != records[b].size) return records[a].size > records[b].size;
    return a < b;
  };

  Skyline::Run run;
  while (skyline.LowestRun(&run)) {
    if (deadline != nullptr && deadline->Expired()) return {};
    size_t best = records.size();
    size_t best_start = 0;
    for (size_t s = run.begin; s <= run.end; ++s) {
      for (size_t i : starts[s]) {
        if (sections.last[i] > run.end) continue;
        if (best == records.size() || better(i, best)) {
          best = i;
          best_start = s;
        }
      }
    }
    if (best != records.size()) {
      offsets[best] = run.floor;
      skyline.Place(sections.first[best], sections.last[best], run.floor, records[best].size);
      auto& list = starts[best_start];
      list.erase(std::find(list.begin(), list.end(), best));
      continue;
    }
    // A tensor live in the run but not inside it reaches a non-wall
    // neighbour, so at least one side is finite here.
    skyline.Raise(run.begin, run.end, std::min(run.left, run.right));
  }
  return offsets;
}

}  // namespace glpool
