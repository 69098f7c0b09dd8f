// Memory-aware operator order: a topological order of a graph's nodes whose
// peak of live pooled bytes (the offsets lower bound of its usage records,
// planner/lower_bounds.h) is lower than the given order's, so the arena floor
// itself drops. Order only: the nodes are the same, only permuted.
//
// Algorithm (a bounded form of Serenity's dynamic programming over the sets
// of nodes already run, Ahn et al., MLSys 2020):
//  - a pooled storage root (compile.h) is live from the first to the last
//    node touching it (reading or writing it or an alias of it), inclusive,
//    exactly as compile derives usage records, so a node's step holds the
//    bytes live before it plus the roots it starts;
//  - states are sets of nodes already run; two orders of the same set leave
//    the same roots live, so only the lower peak of the two is kept (the
//    DP's merge, on a 64-bit hash of the set);
//  - the frontier keeps the `beam_width` best states per depth, by (peak so
//    far, live bytes, given order), so ties keep the given order;
//  - a deadline and an expansion guard bound it: once either is hit, the
//    remaining depths are finished greedily (a beam of one);
//  - the order found is compiled and its real peak measured; it is kept only
//    when strictly lower, so the result is never worse than the given order.
// Cost: O(n * B * (n + degree)) time and O(n * B) memory for n nodes and beam
// width B, plus two compilations.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.h"
#include "gpu_backend/compile/usage_records.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

struct MemoryOrderOptions {
  Precision precision = Precision::kFp32;
  double budget_seconds = 1.0;            // CPU time for the search (planner/budget.h)
  size_t beam_width = 64;                 // states kept per depth, >= 1
  uint64_t max_expansions = 50'000'000;   // iteration guard over all depths
};

struct MemoryOrderResult {
  Graph graph;                 // the nodes in the order chosen (the given one if nothing was better)
  uint64_t peak_given = 0;     // bytes: offsets lower bound in the given order
  uint64_t peak = 0;           // bytes: the same in the order chosen (<= peak_given)
  bool reordered = false;      // the order changed (peak < peak_given)
  bool cut_short = false;      // the deadline or the guard ended the beam early
};

// Fails only where CompileGraph fails on the given graph.
StatusOr<MemoryOrderResult> OrderForMemory(const Graph& graph, const MemoryOrderOptions& options);

// The offsets lower bound of a graph's buffer records as compiled in its node order.
StatusOr<uint64_t> PeakLiveBytes(const Graph& graph, Precision precision);

}  // namespace glpool
