// Which shared object is free for a tensor's tasks, and nearest in time to
// the tensor? The question greedy-by-size shared objects asks for every
// tensor; answered here without visiting every object.
//
// An object is free for [a, b] exactly when one of its gaps (the free
// stretch between two consecutive busy ranges, prev_end < task < next_start)
// contains [a, b]. Its distance is min(a - prev_end, next_start - b) - 1.
// The smallest distance over all free objects is the smaller of two
// one-sided answers, each a single tree descent:
//  - left: the largest prev_end < a among gaps with next_start > b. Every
//    tensor t has a slot in a tree ordered by t's last task; the slot holds
//    the start of the next busy range after t in t's object (+inf if none),
//    so "rightmost slot before a holding > b" is the answer.
//  - right: the smallest next_start > b among gaps with prev_end < a. Slots
//    ordered by first task hold -(prev_end before t) (+inf if none), and the
//    answer is the leftmost slot after b holding > -a.
// Ties (several objects at the same distance) go to the lowest object id,
// as a scan in id order would pick: the tied slots share one task value, a
// contiguous run of slots, and each further tied object costs one descent.
//
// Cost: O(log n) per Occupy and per query (plus O(log n) per tied object),
// O(n) memory for n tensors. Objects keep their busy ranges in ordered maps
// for the neighbour lookups (O(log n)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "planner/usage_record.h"

namespace glpool {

// Max over a fixed array of int64 with point updates, and "first/last index
// in [l, r) whose value exceeds x" in O(log n) per answer.
class MaxTree {
 public:
  static constexpr size_t kNone = SIZE_MAX;
  explicit MaxTree(size_t n);
  void Set(size_t i, int64_t value);
  size_t Leftmost(size_t l, size_t r, int64_t above) const;
  size_t Rightmost(size_t l, size_t r, int64_t above) const;

 private:
  size_t Leftmost(size_t node, size_t nl, size_t nr, size_t l, size_t r, int64_t above) const;
  size_t Rightmost(size_t node, size_t nl, size_t nr, size_t l, size_t r, int64_t above) const;
  size_t n_;
  std::vector<int64_t> max_;  // recursive layout, node 1 covers [0, n)
};

class NearestFreeObject {
 public:
  static constexpr size_t kNone = SIZE_MAX;
  static constexpr TaskId kFar = INT64_MAX;

  // `records` must outlive this index; tensors are named by their index.
  explicit NearestFreeObject(const std::vector<ByteRecord>& records);

  size_t objects() const { return busy_.size(); }
  size_t AddObject();

  // True when `object` is free for tensor's tasks; then *distance as above
  // (kFar for an object with no tensors).
  bool FreeDistance(size_t object, TaskId first, TaskId last, TaskId* distance) const;

  // The free object nearest to [first, last], ties to the lowest id; false
  // when no object with a tensor is free (objects with none are not found).
  bool Nearest(TaskId first, TaskId last, size_t* object, TaskId* distance) const;

  // Puts `tensor` into `object`; the caller has checked it is free.
  void Occupy(size_t object, size_t tensor);

 private:
  const std::vector<ByteRecord>& records_;
  std::vector<size_t> object_of_;  // per tensor, kNone until placed
  std::vector<std::map<TaskId, size_t>> busy_;  // per object: first task -> tensor
  std::vector<size_t> by_last_, by_first_;      // slot -> tensor
  std::vector<size_t> last_slot_, first_slot_;  // tensor -> slot
  MaxTree next_start_;     // by last task: next busy start after the tensor
  MaxTree neg_prev_end_;   // by first task: -(busy end before the tensor)
};

}  // namespace glpool
