#include "planner/offsets_greedy_by_breadth.h"

#include <algorithm>
#include <numeric>

#include "planner/offsets_gap_fit.h"
#include "planner/time_sections.h"

namespace glpool {

std::vector<uint64_t> OffsetsGreedyByBreadth(const std::vector<ByteRecord>& records) {
  const TimeSections sections = BuildTimeSections(records);
  const std::vector<uint64_t> breadth = SectionLoads(records, sections);
  std::vector<size_t> section_order(sections.count);
  std::iota(section_order.begin(), section_order.end(), 0);
  std::stable_sort(section_order.begin(), section_order.end(),
                   [&](size_t a, size_t b) { return breadth[a] > breadth[b]; });

  std::vector<size_t> by_size(records.size());
  std::iota(by_size.begin(), by_size.end(), 0);
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](size_t a, size_t b) { return records[a].size > records[b].size; });

  GapFitPacker packer(records);
  std::vector<bool> placed(records.size(), false);
  for (size_t s : section_order) {
    for (size_t i : by_size) {
      if (placed[i] || sections.first[i] > s || s > sections.last[i]) continue;
      packer.Place(i);
      placed[i] = true;
    }
  }
  return packer.offsets();
}

}  // namespace glpool
