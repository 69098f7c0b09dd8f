// PEAK_FIRST offsets: the tensors live at the peaks of the load packed under
// the lower bound by a complete search, every other tensor around them by
// best fit, tightest first.
//
// Why: on large record sets the load comes near its maximum (the offsets
// lower bound H) only at a few short peaks, and elsewhere there is room to
// spare (bench/record_generator.h's random_50000: mean load 52% of H, 0.3%
// of the tasks above 9/10 of it). The greedy packers lose their few percent
// at those peaks, and a complete search cannot take the whole set, but it
// packs the few hundred tensors live at the peaks under H in milliseconds
// once it sees only them. What is left must then fit around them, which it
// does where the load is low and fails near the peaks; the tensors that did
// not fit join the search's share, and the next round packs them too.
//
// Steps:
//  - peak[i]: the highest load in a time section of tensor i's life (a
//    range maximum); the core: the tensors with peak[i] > 9/10 H;
//  - each round, while time lasts (at most kMaxPeakFirstRounds):
//     - split the core into clusters (tensors whose lifetimes chain
//       together); the canonical search (planner/offsets_canonical_search.h)
//       packs each under H within a slice of the time left. A cluster it
//       does not pack in time, or proves cannot fit, leaves the core for
//       good, its tensors left to the fill;
//     - the fill: best fit (planner/offsets_gap_fit.h) of every other
//       tensor around the core, by peak descending, then size descending,
//       then index (the tightest places first);
//     - the tensors the fill left ending above H join the core;
//    until nothing ends above H: that plan is at the lower bound, so
//    optimal. The smallest plan of the rounds is returned.
// Cost per round: the fill's O(n (1 + k) log n) for k tensors live beside
// each (as GREEDY_BY_SIZE), plus the clusters' searches, bounded by the
// deadline and by node-limited rounds; O(n log n) to set up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

// Rounds at most (the iteration guard; each adds at least one tensor to the
// core or ends).
inline constexpr size_t kMaxPeakFirstRounds = 64;

struct PeakFirstResult {
  std::vector<uint64_t> offsets;  // in the records' size units; always a complete plan
  size_t rounds = 0;              // rounds run
  size_t core = 0;                // tensors the search packed in the kept plan
};

// Records well formed. The first round's fill always completes, so a plan
// comes back even when `deadline` has passed (then without the search).
PeakFirstResult OffsetsPeakFirst(const std::vector<ByteRecord>& records, const Deadline& deadline);

}  // namespace glpool
