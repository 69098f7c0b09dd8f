#include "planner/interval_index.h"

#include <algorithm>

namespace glpool {

IntervalIndex::IntervalIndex(const std::vector<ByteRecord>& records)
    : records_(records), stamp_(records.size(), 0) {
  tasks_.reserve(2 * records.size());
  for (const ByteRecord& r : records) {
    tasks_.push_back(r.first_task);
    tasks_.push_back(r.last_task);
  }
  std::sort(tasks_.begin(), tasks_.end());
  tasks_.erase(std::unique(tasks_.begin(), tasks_.end()), tasks_.end());
  stored_.resize(4 * std::max<size_t>(1, tasks_.size()));
  subtree_.assign(stored_.size(), 0);
}

size_t IntervalIndex::Coordinate(TaskId task) const {
  return std::lower_bound(tasks_.begin(), tasks_.end(), task) - tasks_.begin();
}

void IntervalIndex::Add(size_t record) {
  const ByteRecord& r = records_[record];
  Insert(1, 0, tasks_.size() - 1, Coordinate(r.first_task), Coordinate(r.last_task),
         static_cast<uint32_t>(record));
}

void IntervalIndex::Insert(size_t node, size_t lo, size_t hi, size_t a, size_t b,
                           uint32_t record) {
  ++subtree_[node];
  if (a <= lo && hi <= b) {
    stored_[node].push_back(record);
    return;
  }
  const size_t mid = lo + (hi - lo) / 2;
  if (a <= mid) Insert(2 * node, lo, mid, a, b, record);
  if (b > mid) Insert(2 * node + 1, mid + 1, hi, a, b, record);
}

void IntervalIndex::Overlapping(size_t query, std::vector<size_t>* out) {
  if (tasks_.empty()) return;
  ++query_;
  exclude_ = query;
  const ByteRecord& r = records_[query];
  Collect(1, 0, tasks_.size() - 1, Coordinate(r.first_task), Coordinate(r.last_task), out);
}

void IntervalIndex::Collect(size_t node, size_t lo, size_t hi, size_t a, size_t b,
                            std::vector<size_t>* out) {
  if (subtree_[node] == 0) return;
  for (uint32_t record : stored_[node]) {
    if (stamp_[record] == query_ || record == exclude_) continue;
    stamp_[record] = query_;
    out->push_back(record);
  }
  if (lo == hi) return;
  const size_t mid = lo + (hi - lo) / 2;
  if (a <= mid) Collect(2 * node, lo, mid, a, b, out);
  if (b > mid) Collect(2 * node + 1, mid + 1, hi, a, b, out);
}

}  // namespace glpool
