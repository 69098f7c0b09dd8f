// Busy task ranges per shared object: the one question every greedy
// shared-objects strategy asks is "is this object free for these tasks?".
// Sizes are not tracked here, so bytes and texture extents share it.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "planner/usage_record.h"

namespace glpool {

class ObjectTimelines {
 public:
  static constexpr TaskId kFar = std::numeric_limits<TaskId>::max();

  size_t size() const { return busy_.size(); }

  // Adds an object with no tensors; returns its id.
  size_t Add() {
    busy_.emplace_back();
    return busy_.size() - 1;
  }

  // True when no tensor of `object` is live in [first, last] (inclusive).
  bool IsFree(size_t object, TaskId first, TaskId last) const {
    const auto& m = busy_[object];
    auto next = m.lower_bound(first);
    if (next != m.end() && next->first <= last) return false;
    if (next != m.begin() && std::prev(next)->second >= first) return false;
    return true;
  }

  // IsFree and, when free, Distance, with one lookup (the inner step of
  // greedy by size).
  bool FreeDistance(size_t object, TaskId first, TaskId last, TaskId* distance) const {
    const auto& m = busy_[object];
    auto next = m.lower_bound(first);
    TaskId best = kFar;
    if (next != m.end()) {
      if (next->first <= last) return false;
      best = next->first - last - 1;
    }
    if (next != m.begin()) {
      const TaskId end = std::prev(next)->second;
      if (end >= first) return false;
      best = std::min(best, first - end - 1);
    }
    *distance = best;
    return true;
  }

  // Marks [first, last] busy. The caller has checked IsFree.
  void Occupy(size_t object, TaskId first, TaskId last) { busy_[object].emplace(first, last); }

  // Tasks between [first, last] and the nearest busy range of `object`
  // (0 when adjacent); kFar for an object with no tensors. Assumes IsFree.
  TaskId Distance(size_t object, TaskId first, TaskId last) const {
    const auto& m = busy_[object];
    TaskId best = kFar;
    auto next = m.lower_bound(first);
    if (next != m.end()) best = next->first - last - 1;
    if (next != m.begin()) {
      TaskId gap = first - std::prev(next)->second - 1;
      if (gap < best) best = gap;
    }
    return best;
  }

 private:
  std::vector<std::map<TaskId, TaskId>> busy_;  // first -> last per object
};

}  // namespace glpool
