#include "planner/nearest_free_object.h"

#include <algorithm>
#include <iterator>
#include <numeric>

namespace glpool {

// ---- MaxTree ----

MaxTree::MaxTree(size_t n) : n_(n), max_(4 * std::max<size_t>(n, 1), INT64_MIN) {}

void MaxTree::Set(size_t i, int64_t value) {
  size_t node = 1, nl = 0, nr = n_;
  // Walk down recording the path, then fix the maxima on the way up.
  size_t path[64];  // depth <= 64 for any size_t n
  size_t depth = 0;
  while (nr - nl > 1) {
    path[depth++] = node;
    const size_t mid = nl + (nr - nl) / 2;
    if (i < mid) {
      node = 2 * node;
      nr = mid;
    } else {
      node = 2 * node + 1;
      nl = mid;
    }
  }
  max_[node] = value;
  while (depth > 0) {
    const size_t up = path[--depth];
    max_[up] = std::max(max_[2 * up], max_[2 * up + 1]);
  }
}

size_t MaxTree::Leftmost(size_t l, size_t r, int64_t above) const {
  if (l >= r) return kNone;
  return Leftmost(1, 0, n_, l, r, above);
}

size_t MaxTree::Rightmost(size_t l, size_t r, int64_t above) const {
  if (l >= r) return kNone;
  return Rightmost(1, 0, n_, l, r, above);
}

// A subtree is entered only when it overlaps [l, r) and its maximum exceeds
// `above`; a fully covered subtree with such a maximum always holds an
// answer, so the descent visits O(log n) nodes.
size_t MaxTree::Leftmost(size_t node, size_t nl, size_t nr, size_t l, size_t r,
                         int64_t above) const {
  if (nr <= l || r <= nl || max_[node] <= above) return kNone;
  if (nr - nl == 1) return nl;
  const size_t mid = nl + (nr - nl) / 2;
  const size_t left = Leftmost(2 * node, nl, mid, l, r, above);
  if (left != kNone) return left;
  return Leftmost(2 * node + 1, mid, nr, l, r, above);
}

size_t MaxTree::Rightmost(size_t node, size_t nl, size_t nr, size_t l, size_t r,
                          int64_t above) const {
  if (nr <= l || r <= nl || max_[node] <= above) return kNone;
  if (nr - nl == 1) return nl;
  const size_t mid = nl + (nr - nl) / 2;
  const size_t right = Rightmost(2 * node + 1, mid, nr, l, r, above);
  if (right != kNone) return right;
  return Rightmost(2 * node, nl, mid, l, r, above);
}

// ---- NearestFreeObject ----

NearestFreeObject::NearestFreeObject(const std::vector<ByteRecord>& records)
    : records_(records),
      object_of_(records.size(), kNone),
      by_last_(records.size()),
      by_first_(records.size()),
      last_slot_(records.size()),
      first_slot_(records.size()),
      next_start_(records.size()),
      neg_prev_end_(records.size()) {
  std::iota(by_last_.begin(), by_last_.end(), size_t{0});
  std::iota(by_first_.begin(), by_first_.end(), size_t{0});
  std::sort(by_last_.begin(), by_last_.end(), [&](size_t x, size_t y) {
    return records[x].last_task < records[y].last_task ||
           (records[x].last_task == records[y].last_task && x < y);
  });
  std::sort(by_first_.begin(), by_first_.end(), [&](size_t x, size_t y) {
    return records[x].first_task < records[y].first_task ||
           (records[x].first_task == records[y].first_task && x < y);
  });
  for (size_t s = 0; s < records.size(); ++s) {
    last_slot_[by_last_[s]] = s;
    first_slot_[by_first_[s]] = s;
  }
}

size_t NearestFreeObject::AddObject() {
  busy_.emplace_back();
  return busy_.size() - 1;
}

bool NearestFreeObject::FreeDistance(size_t object, TaskId first, TaskId last,
                                     TaskId* distance) const {
  const auto& m = busy_[object];
  auto next = m.lower_bound(first);
  TaskId best = kFar;
  if (next != m.end()) {
    if (next->first <= last) return false;
    best = next->first - last - 1;
  }
  if (next != m.begin()) {
    const TaskId end = records_[std::prev(next)->second].last_task;
    if (end >= first) return false;
    best = std::min(best, first - end - 1);
  }
  *distance = best;
  return true;
}

bool NearestFreeObject::Nearest(TaskId first, TaskId last, size_t* object,
                                TaskId* distance) const {
  const size_t n = records_.size();
  TaskId best_distance = kFar;
  size_t best_object = kNone;
  auto offer = [&](TaskId d, size_t o) {
    if (d < best_distance || (d == best_distance && o < best_object)) {
      best_distance = d;
      best_object = o;
    }
  };

  // Left: slots whose tensor ends before `first`, holding a next start > last.
  const size_t before = static_cast<size_t>(
      std::partition_point(by_last_.begin(), by_last_.end(),
                           [&](size_t t) { return records_[t].last_task < first; }) -
      by_last_.begin());
  size_t slot = next_start_.Rightmost(0, before, last);
  if (slot != MaxTree::kNone) {
    const TaskId end = records_[by_last_[slot]].last_task;
    // Tied slots: the run of slots that end at the same task.
    const size_t run = static_cast<size_t>(
        std::partition_point(by_last_.begin(), by_last_.begin() + static_cast<std::ptrdiff_t>(slot),
                             [&](size_t t) { return records_[t].last_task < end; }) -
        by_last_.begin());
    for (; slot != MaxTree::kNone; slot = next_start_.Rightmost(run, slot, last)) {
      offer(first - end - 1, object_of_[by_last_[slot]]);
    }
  }

  // Right: slots whose tensor starts after `last`, holding -prev_end > -first.
  const size_t after = static_cast<size_t>(
      std::partition_point(by_first_.begin(), by_first_.end(),
                           [&](size_t t) { return records_[t].first_task <= last; }) -
      by_first_.begin());
  slot = neg_prev_end_.Leftmost(after, n, -first);
  if (slot != MaxTree::kNone) {
    const TaskId start = records_[by_first_[slot]].first_task;
    const size_t run_end = static_cast<size_t>(
        std::partition_point(by_first_.begin() + static_cast<std::ptrdiff_t>(slot), by_first_.end(),
                             [&](size_t t) { return records_[t].first_task <= start; }) -
        by_first_.begin());
    for (; slot != MaxTree::kNone; slot = neg_prev_end_.Leftmost(slot + 1, run_end, -first)) {
      offer(start - last - 1, object_of_[by_first_[slot]]);
    }
  }
  if (best_object == kNone) return false;
  *object = best_object;
  *distance = best_distance;
  return true;
}

void NearestFreeObject::Occupy(size_t object, size_t tensor) {
  auto& m = busy_[object];
  const ByteRecord& r = records_[tensor];
  auto next = m.lower_bound(r.first_task);
  // The gap [prev, next] that held the tensor splits in two around it.
  if (next != m.begin()) {
    const size_t prev = std::prev(next)->second;
    next_start_.Set(last_slot_[prev], r.first_task);
    neg_prev_end_.Set(first_slot_[tensor], -records_[prev].last_task);
  } else {
    neg_prev_end_.Set(first_slot_[tensor], INT64_MAX);
  }
  if (next != m.end()) {
    neg_prev_end_.Set(first_slot_[next->second], -r.last_task);
    next_start_.Set(last_slot_[tensor], next->first);
  } else {
    next_start_.Set(last_slot_[tensor], INT64_MAX);
  }
  m.emplace_hint(next, r.first_task, tensor);
  object_of_[tensor] = object;
}

}  // namespace glpool
