#include "planner/interval_index.h"

#include <algorithm>

namespace glpool {

IntervalIndex::IntervalIndex(const std::vector<ByteRecord>& records)
    : records_(records), first_(records.size()), last_(records.size()) {
  std::vector<TaskId> tasks;
  tasks.reserve(2 * records.size());
  for (const ByteRecord& r : records) {
    tasks.push_back(r.first_task);
    tasks.push_back(r.last_task);
  }
  std::sort(tasks.begin(), tasks.end());
  tasks.erase(std::unique(tasks.begin(), tasks.end()), tasks.end());
  auto position = [&](TaskId task) {
    return static_cast<uint32_t>(std::lower_bound(tasks.begin(), tasks.end(), task) - tasks.begin());
  };
  for (size_t i = 0; i < records.size(); ++i) {
    first_[i] = position(records[i].first_task);
    last_[i] = position(records[i].last_task);
  }
  positions_ = static_cast<uint32_t>(tasks.size());
  nodes_.resize(4 * std::max<size_t>(1, tasks.size()));
}

void IntervalIndex::Clear() {
  for (Node& node : nodes_) {
    node.by_first.clear();
    node.by_last.clear();
    node.subtree = 0;
  }
}

void IntervalIndex::Add(size_t record, uint64_t offset) {
  const uint32_t a = first_[record], b = last_[record];
  const ByteRange range{offset, offset + records_[record].size};
  size_t node = 1;
  uint32_t lo = 0, hi = positions_ - 1;
  for (;;) {
    Node& here = nodes_[node];
    ++here.subtree;
    const uint32_t mid = lo + (hi - lo) / 2;
    if (b < mid) {
      node = 2 * node;
      hi = mid - 1;
    } else if (a > mid) {
      node = 2 * node + 1;
      lo = mid + 1;
    } else {
      auto by_first = std::upper_bound(here.by_first.begin(), here.by_first.end(), a,
                                       [](uint32_t task, const Stored& s) { return task < s.task; });
      here.by_first.insert(by_first, {a, range});
      auto by_last = std::upper_bound(here.by_last.begin(), here.by_last.end(), b,
                                      [](uint32_t task, const Stored& s) { return task > s.task; });
      here.by_last.insert(by_last, {b, range});
      return;
    }
  }
}

void IntervalIndex::Occupied(size_t query, std::vector<ByteRange>* out) const {
  if (positions_ == 0) return;
  Collect(1, 0, positions_ - 1, first_[query], last_[query], out);
}

void IntervalIndex::Collect(size_t node, uint32_t lo, uint32_t hi, uint32_t a, uint32_t b,
                            std::vector<ByteRange>* out) const {
  // lo <= hi and [a, b] meets [lo, hi] whenever this is called.
  const Node& here = nodes_[node];
  if (here.subtree == 0) return;
  const uint32_t mid = lo + (hi - lo) / 2;
  if (b < mid) {
    for (const Stored& s : here.by_first) {
      if (s.task > b) break;
      out->push_back(s.range);
    }
    if (lo < mid) Collect(2 * node, lo, mid - 1, a, b, out);
  } else if (a > mid) {
    for (const Stored& s : here.by_last) {
      if (s.task < a) break;
      out->push_back(s.range);
    }
    if (mid < hi) Collect(2 * node + 1, mid + 1, hi, a, b, out);
  } else {
    for (const Stored& s : here.by_first) out->push_back(s.range);
    if (a < mid) Collect(2 * node, lo, mid - 1, a, b, out);
    if (b > mid) Collect(2 * node + 1, mid + 1, hi, a, b, out);
  }
}

}  // namespace glpool
