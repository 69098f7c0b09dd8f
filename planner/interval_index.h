// Which of the records added so far overlap a task range? The question
// every greedy offset strategy asks for each tensor it places
// (planner/offsets_gap_fit.h).
//  - A segment tree over the distinct task boundaries of all records; an
//    added record is stored in the O(log n) nodes that tile its range, and
//    every node counts the records stored in its subtree.
//  - A query visits the nodes that intersect its range and hold something:
//    a record stored at such a node overlaps the query. Records stored at
//    several visited nodes are reported once (a stamp per record).
//  - Cost: Add O(log n); Overlapping O((1 + k) log n) for k records found.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/usage_record.h"

namespace glpool {

class IntervalIndex {
 public:
  // Every record that will be added or queried comes from `records`.
  explicit IntervalIndex(const std::vector<ByteRecord>& records);

  void Add(size_t record);

  // Appends to *out the added records whose task ranges overlap record
  // `query`'s (itself excluded when added), in no particular order.
  void Overlapping(size_t query, std::vector<size_t>* out);

 private:
  size_t Coordinate(TaskId task) const;
  void Insert(size_t node, size_t lo, size_t hi, size_t a, size_t b, uint32_t record);
  void Collect(size_t node, size_t lo, size_t hi, size_t a, size_t b, std::vector<size_t>* out);

  const std::vector<ByteRecord>& records_;
  std::vector<TaskId> tasks_;  // distinct first and last tasks, ascending
  std::vector<std::vector<uint32_t>> stored_;
  std::vector<uint32_t> subtree_;  // records stored in each subtree
  std::vector<uint64_t> stamp_;
  uint64_t query_ = 0;
  size_t exclude_ = SIZE_MAX;
};

}  // namespace glpool
