#include "planner/offsets_gap_fit.h"

#include <algorithm>
#include <limits>

namespace glpool {

GapFitPacker::GapFitPacker(const std::vector<ByteRecord>& records)
    : records_(records), offsets_(records.size(), 0), placed_(records) {}

uint64_t GapFitPacker::Place(size_t i) {
  const ByteRecord& r = records_[i];
  if (r.size == 0) return offsets_[i] = 0;
  occupied_.clear();
  placed_.Occupied(i, &occupied_);
  std::sort(occupied_.begin(), occupied_.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
  uint64_t best_offset = 0;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  bool found = false;
  uint64_t prev_end = 0;
  for (const ByteRange& range : occupied_) {
    if (range.begin > prev_end) {
      const uint64_t gap = range.begin - prev_end;
      if (gap >= r.size && gap < best_gap) {
        best_gap = gap;
        best_offset = prev_end;
        found = true;
      }
    }
    prev_end = std::max(prev_end, range.end);
  }
  offsets_[i] = found ? best_offset : prev_end;
  placed_.Add(i, offsets_[i]);  // zero-size records are never added: they occupy nothing
  return offsets_[i];
}

void GapFitPacker::Clear() {
  placed_.Clear();
  std::fill(offsets_.begin(), offsets_.end(), 0);
}

void GapFitPacker::PlaceAt(size_t i, uint64_t offset) {
  offsets_[i] = records_[i].size == 0 ? 0 : offset;
  if (records_[i].size != 0) placed_.Add(i, offset);
}

std::vector<uint64_t> GapFitInOrder(const std::vector<ByteRecord>& records,
                                    const std::vector<size_t>& order, const Deadline* deadline) {
  GapFitPacker packer(records);
  for (size_t i : order) {
    if (deadline != nullptr && deadline->Expired()) return {};
    packer.Place(i);
  }
  return packer.offsets();
}

}  // namespace glpool
