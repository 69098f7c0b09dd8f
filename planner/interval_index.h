// The byte ranges that placed tensors occupy during a task range: the
// question every greedy offset strategy asks for each tensor it places
// (planner/offsets_gap_fit.h).
//  - A centered interval tree over the distinct task boundaries of all
//    records: an implicit balanced tree whose node covers positions
//    [lo, hi] and splits at mid; an added record is stored once, at the
//    highest node whose mid lies in its task range, in two lists: by first
//    task ascending and by last task descending. Every node counts the
//    records stored in its subtree.
//  - A query [a, b] walks down: at a node with mid in [a, b] every stored
//    record overlaps it; with b < mid, the records whose first task <= b
//    (a prefix of the first list) and only the left subtree can hold more;
//    with a > mid, a prefix of the last list and only the right subtree.
//    Subtrees that hold nothing are skipped.
//  - The ranges themselves are stored, not record ids, so a query reads
//    them in sweeps of memory, and its caller sorts plain pairs.
//  - Cost: Add O(log n + m) for m records at its node (a sorted insert);
//    Occupied O(log n + k) nodes for k records found, each reported once.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/usage_record.h"

namespace glpool {

struct ByteRange {
  uint64_t begin = 0;
  uint64_t end = 0;  // exclusive
};

class IntervalIndex {
 public:
  // Every record that will be added or queried comes from `records`.
  explicit IntervalIndex(const std::vector<ByteRecord>& records);

  // Record `record` now occupies [offset, offset + its size).
  void Add(size_t record, uint64_t offset);

  // Removes every added record (keeps the task positions and the lists'
  // memory, so refilling costs no setup).
  void Clear();

  // Appends to *out the byte ranges of the added records whose task ranges
  // overlap record `query`'s, each once, in no particular order.
  void Occupied(size_t query, std::vector<ByteRange>* out) const;

 private:
  struct Stored {
    uint32_t task = 0;  // first (in by_first) or last (in by_last) task position
    ByteRange range;
  };
  struct Node {
    std::vector<Stored> by_first;  // first task ascending
    std::vector<Stored> by_last;   // last task descending
    uint32_t subtree = 0;          // records stored here and below
  };
  void Collect(size_t node, uint32_t lo, uint32_t hi, uint32_t a, uint32_t b,
               std::vector<ByteRange>* out) const;

  const std::vector<ByteRecord>& records_;
  // Per record, its first and last task as positions among the distinct
  // task boundaries (computed once: queries do no binary search).
  std::vector<uint32_t> first_, last_;
  uint32_t positions_ = 0;
  std::vector<Node> nodes_;  // implicit tree: children of n are 2n and 2n + 1
};

}  // namespace glpool
