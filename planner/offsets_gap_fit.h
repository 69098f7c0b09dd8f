// Best-fit gap placement: the step the greedy offset strategies share
// (GREEDY_BY_SIZE, GREEDY_IN_ORDER, GREEDY_BY_BREADTH differ only in the
// order in which they hand tensors to it).
//
// Placing tensor i:
//  - look at the byte ranges of the tensors already placed whose task
//    ranges overlap i's, in order of offset;
//  - the gaps between them (and below the lowest) are the free byte ranges
//    over i's whole lifetime; take the smallest gap that holds i, the lowest
//    one on a tie (best fit keeps big gaps for big tensors);
//  - if none holds it, place i just above the highest of them;
//  - a zero-size tensor occupies nothing and goes to offset 0.
// Cost: the overlapping placed tensors come from an interval index
// (planner/interval_index.h), so a tensor costs O((1 + k) log n) for the k
// placed tensors overlapping it: O(n log n) when few tensors are live at
// once, O(n w log n) at worst for w live at once.
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/interval_index.h"
#include "planner/usage_record.h"

namespace glpool {

class GapFitPacker {
 public:
  explicit GapFitPacker(const std::vector<ByteRecord>& records);

  // Places record i (not placed before) and returns its offset.
  uint64_t Place(size_t i);

  // Places record i (not placed before) at `offset`, chosen by the caller.
  void PlaceAt(size_t i, uint64_t offset);

  // Forgets every placement, to place the records again.
  void Clear();

  // offsets()[i] is meaningful once i has been placed.
  const std::vector<uint64_t>& offsets() const { return offsets_; }

 private:
  const std::vector<ByteRecord>& records_;
  std::vector<uint64_t> offsets_;
  IntervalIndex placed_;               // byte ranges of the placed records of non-zero size
  std::vector<ByteRange> occupied_;   // scratch for Place
};

// Places every record in `order` (a permutation of 0..n-1) and returns the
// offsets; an empty vector when `deadline` (if any) expires first.
std::vector<uint64_t> GapFitInOrder(const std::vector<ByteRecord>& records,
                                    const std::vector<size_t>& order,
                                    const Deadline* deadline = nullptr);

}  // namespace glpool
