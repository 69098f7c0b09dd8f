// Repair: an anytime local search that lowers an offsets plan's arena by
// re-packing the tensors around its top (large neighbourhood search).
//
// Why: the greedy packers leave the arena a few percent above the max-load
// lower bound on random interval sets, and the excess is decided by the few
// tensors that reach the top. Re-packing a small time window around one of
// them, with everything that crosses the window's edges held fixed, often
// finds a packing of the window that stays below the top.
//
// One step:
//  - take a tensor X whose end is the arena (the top; several may tie);
//  - pick a neighbourhood around X's lifetime widened by a radius drawn from
//    a few sizes, one of three kinds: a window (free = the tensors living
//    wholly inside it, fixed = those crossing its edges); the top slab
//    (free = the tensors live in it that reach above a level 1/64 to 1/4 of
//    the arena below the top, fixed = every other tensor live beside them);
//    or a band inside the arena (X's lifetime only, bytes from the end of a
//    tensor live beside X, or 0, up as high as X or twice that: free = X
//    and the tensors in the band, fixed = the rest). The band is what moves
//    a long tensor down: its place is cleared first, and the tensors it
//    pushes out find room elsewhere;
//  - re-place the free tensors one by one, best fit (the smallest gap that
//    holds it over its whole lifetime, the lowest on a tie) among the fixed
//    and the already re-placed, in an order drawn from: X first then by size,
//    by size, by lifetime, by area (in a band, X goes to the band's floor
//    first);
//  - keep the new packing if no free tensor ends above the old top and no
//    more of them end at it than before (moves along the plateau let later
//    steps find what this one could not); otherwise restore it.
// The arena never grows, and drops each time the last tensor at the top
// leaves it. Deterministic for a given seed (no clock in the choices); the
// deadline only decides how many steps run.
// Cost per step: O(f k + k log k) for f free tensors and k tensors
// overlapping the neighbourhood (found by a scan of the tensors sorted by
// first task, from the window's start minus the longest lifetime; kept
// sorted by offset, so each best fit is one pass). Bounded by the deadline and by
// max_steps (the iteration guard).
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

struct RepairOptions {
  uint64_t max_steps = 1000000;  // iteration guard
  uint64_t seed = 1;
  // Windows with more free tensors than this are shrunk to X's lifetime.
  size_t max_free = 4000;
};

// Lowers the arena of `offsets` (a valid plan of `records`, in their size
// units) in place until `deadline` expires, `lower_bound` is reached or
// max_steps pass. Returns the number of steps taken.
uint64_t RepairOffsets(const std::vector<ByteRecord>& records, std::vector<uint64_t>* offsets,
                       uint64_t lower_bound, const Deadline& deadline,
                       const RepairOptions& options = {});

}  // namespace glpool
