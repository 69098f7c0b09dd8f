// Offset planning: every intermediate tensor at an offset in one arena (one
// SSBO bound per task with glBindBufferRange), the arena as small as we can
// make it. This is the public entry; each strategy lives in its own file
// (planner/offsets_*.h) and states its algorithm there.
//
// Contract of every strategy:
//  - records are inclusive task ranges; two records whose ranges overlap get
//    disjoint byte ranges [offset, offset + size) (zero-size records occupy
//    nothing and get offset 0);
//  - with alignment a, every offset is a multiple of a; strategies pack sizes
//    rounded up to a multiple of a, so a tensor's padding never overlaps the
//    next tensor;
//  - total_size is exactly max(offset + size) over the records (0 with none),
//    which is what VerifyOffsets checks;
//  - plans are deterministic: the same records and options give the same
//    offsets (EXACT and AUTO too, unless a time budget cuts a search short,
//    in which case how far it got depends on the machine).
//
// Why several strategies: they are cheap and each wins on some graph shape
// (TFLite reports the same); AUTO runs them all and keeps the smallest, and
// searches (EXACT) only when none of them reaches the lower bound.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "planner/budget.h"
#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

enum class OffsetStrategy {
  kGreedyBySize,      // planner/offsets_greedy_by_size.h
  kGreedyInOrder,     // planner/offsets_greedy_in_order.h
  kGreedyByBreadth,   // planner/offsets_greedy_by_breadth.h
  kStripPacking,      // planner/offsets_strip_packing.h
  kPeakFirst,         // planner/offsets_peak_first.h
  kObjectsToOffsets,  // planner/offsets_objects_to_offsets.h
  kExact,             // planner/offsets_exact.h
  kAuto,              // planner/offsets_auto.h
};

struct OffsetOptions {
  // Every offset is a multiple of this (>= 1); e.g. the device's
  // GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, so glBindBufferRange accepts it.
  uint64_t alignment = 1;
  // Budget in CPU seconds (planner/budget.h), >= 0, for EXACT's search, PEAK_FIRST's and
  // AUTO (which searches only when the heuristics miss the lower bound).
  // Unset: EXACT gets kDefaultExactBudgetSeconds, PEAK_FIRST and AUTO
  // DefaultAutoBudgetSeconds(records) (planner/budget.h).
  std::optional<double> budget_seconds;
};

struct OffsetPlan {
  OffsetsAssignment assignment;
  // The strategy that produced `assignment`: the requested one, or for AUTO
  // the portfolio member whose plan it kept.
  OffsetStrategy chosen = OffsetStrategy::kAuto;
  // AUTO only: its repair pass (planner/offsets_repair.h) lowered the chosen
  // member's plan.
  bool repaired = false;
  // True when no valid plan (with these options) has a smaller total_size.
  bool proven_optimal = false;
  // OffsetsLowerBound(records): max over tasks of the live bytes. A floor for
  // any plan, aligned or not.
  uint64_t lower_bound = 0;
  // The best floor proven for this record set and alignment: lower_bound, or
  // more when EXACT/AUTO proved smaller arenas infeasible. The plan is within
  // total_size - proven_lower_bound bytes of optimal; equal means optimal.
  uint64_t proven_lower_bound = 0;
  // Wall-clock milliseconds PlanOffsets spent, validation included.
  double ms = 0.0;
};

// Plans `records` with `strategy`. Errors (InvalidArgument, naming the record
// by index): alignment 0, a negative (or NaN) budget, last_task < first_task,
// or sizes whose padded sum does not fit in 64 bits. Never aborts.
StatusOr<OffsetPlan> PlanOffsets(const std::vector<ByteRecord>& records, OffsetStrategy strategy,
                                 const OffsetOptions& options);

// "greedy_by_size", "greedy_in_order", "greedy_by_breadth", "strip_packing",
// "peak_first", "objects_to_offsets", "exact", "auto".
const char* OffsetStrategyName(OffsetStrategy strategy);

// The inverse of OffsetStrategyName, case-insensitive; InvalidArgument listing
// the valid names otherwise.
StatusOr<OffsetStrategy> ParseOffsetStrategy(const std::string& name);

// Every strategy, in the enum's order (AUTO last).
const std::vector<OffsetStrategy>& AllOffsetStrategies();

}  // namespace glpool
