#include "planner/offsets_greedy_by_breadth.h"

#include <algorithm>
#include <numeric>

#include "planner/offsets_gap_fit.h"
#include "planner/range_minimum.h"
#include "planner/time_sections.h"

namespace glpool {

std::vector<uint64_t> OffsetsGreedyByBreadth(const std::vector<ByteRecord>& records,
                                    const Deadline* deadline) {
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

  // Visiting sections by breadth and, at each, its unplaced tensors by size
  // is visiting tensors by (first visited section of their lifetime, size).
  std::vector<size_t> rank(sections.count);
  for (size_t k = 0; k < section_order.size(); ++k) rank[section_order[k]] = k;
  const RangeMinimum first_visit(rank);
  std::vector<size_t> visit(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    visit[i] = first_visit.Min(sections.first[i], sections.last[i]);
  }
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](size_t a, size_t b) { return visit[a] < visit[b]; });
  return GapFitInOrder(records, by_size, deadline);
}

}  // namespace glpool
