#include "planner/offsets_greedy_by_size.h"

#include <algorithm>
#include <numeric>

#include "planner/offsets_gap_fit.h"

namespace glpool {

std::vector<uint64_t> OffsetsGreedyBySize(const std::vector<ByteRecord>& records,
                                          const Deadline* deadline) {
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return records[a].size > records[b].size; });
  return GapFitInOrder(records, order, deadline);
}

}  // namespace glpool
