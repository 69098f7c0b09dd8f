#include "planner/offsets_gap_fit.h"

#include <algorithm>
#include <limits>

namespace glpool {

GapFitPacker::GapFitPacker(const std::vector<ByteRecord>& records)
    : records_(records), offsets_(records.size(), 0) {
  by_offset_.reserve(records.size());
}

uint64_t GapFitPacker::Place(size_t i) {
  const ByteRecord& r = records_[i];
  if (r.size == 0) return offsets_[i] = 0;
  uint64_t best_offset = 0;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  bool found = false;
  uint64_t prev_end = 0;
  for (size_t j : by_offset_) {
    const ByteRecord& p = records_[j];
    if (p.last_task < r.first_task || r.last_task < p.first_task || p.size == 0) continue;
    if (offsets_[j] > prev_end) {
      const uint64_t gap = offsets_[j] - prev_end;
      if (gap >= r.size && gap < best_gap) {
        best_gap = gap;
        best_offset = prev_end;
        found = true;
      }
    }
    prev_end = std::max(prev_end, offsets_[j] + p.size);
  }
  offsets_[i] = found ? best_offset : prev_end;
  auto pos = std::upper_bound(by_offset_.begin(), by_offset_.end(), offsets_[i],
                              [&](uint64_t off, size_t j) { return off < offsets_[j]; });
  by_offset_.insert(pos, i);
  return offsets_[i];
}

std::vector<uint64_t> GapFitInOrder(const std::vector<ByteRecord>& records,
                                    const std::vector<size_t>& order) {
  GapFitPacker packer(records);
  for (size_t i : order) packer.Place(i);
  return packer.offsets();
}

}  // namespace glpool
