#include "planner/offsets_planner.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <limits>

#include "planner/lower_bounds.h"
#include "planner/offsets_auto.h"
#include "planner/offsets_exact.h"
#include "planner/offsets_greedy_by_breadth.h"
#include "planner/offsets_greedy_by_size.h"
#include "planner/offsets_greedy_in_order.h"
#include "planner/offsets_objects_to_offsets.h"
#include "planner/offsets_peak_first.h"
#include "planner/offsets_problem.h"
#include "planner/record_limits.h"
#include "planner/offsets_strip_packing.h"

namespace glpool {
namespace {

Status Validate(const std::vector<ByteRecord>& records, const OffsetOptions& options) {
  if (options.alignment == 0) return InvalidArgumentError("offset alignment must be >= 1, got 0");
  if (options.budget_seconds && !(*options.budget_seconds >= 0.0)) {
    return InvalidArgumentError("offset search budget must be >= 0 seconds, got " +
                                std::to_string(*options.budget_seconds));
  }
  GLPOOL_RETURN_IF_ERROR(CheckRecordLimits(records));
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  uint64_t padded_sum = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const ByteRecord& r = records[i];
    const uint64_t units = r.size / options.alignment + (r.size % options.alignment != 0 ? 1 : 0);
    if (units > max / options.alignment || units * options.alignment > max - padded_sum) {
      return InvalidArgumentError("record " + std::to_string(i) + ": size " + std::to_string(r.size) +
                                  " makes the padded sizes overflow 64 bits");
    }
    padded_sum += units * options.alignment;
  }
  return Status::Ok();
}

struct Planned {
  std::vector<uint64_t> unit_offsets;
  OffsetStrategy chosen;
  uint64_t proven_lower_bound;  // 0: only the plain lower bound is known
  bool repaired = false;        // AUTO's repair pass lowered the plan
};

StatusOr<Planned> Run(const OffsetProblem& problem, OffsetStrategy strategy,
                      std::optional<double> budget) {
  switch (strategy) {
    case OffsetStrategy::kGreedyBySize:
      return Planned{OffsetsGreedyBySize(problem.units), strategy, 0};
    case OffsetStrategy::kGreedyInOrder:
      return Planned{OffsetsGreedyInOrder(problem.units), strategy, 0};
    case OffsetStrategy::kGreedyByBreadth:
      return Planned{OffsetsGreedyByBreadth(problem.units), strategy, 0};
    case OffsetStrategy::kStripPacking:
      return Planned{OffsetsStripPacking(problem.units), strategy, 0};
    case OffsetStrategy::kPeakFirst: {
      // Searches, so it takes the budget; unset, AUTO's default.
      const double seconds = budget ? *budget : DefaultAutoBudgetSeconds(problem.units.size());
      return Planned{OffsetsPeakFirst(problem.units, Deadline(seconds)).offsets, strategy, 0};
    }
    case OffsetStrategy::kObjectsToOffsets: {
      GLPOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> offsets, OffsetsFromSharedObjects(problem.units));
      return Planned{std::move(offsets), strategy, 0};
    }
    case OffsetStrategy::kExact: {
      ExactResult exact = SolveOffsetsExact(problem, nullptr,
                                            budget ? *budget : kDefaultExactBudgetSeconds);
      return Planned{std::move(exact.unit_offsets), strategy, exact.proven_lower_bound};
    }
    case OffsetStrategy::kAuto: {
      const double seconds = budget ? *budget : DefaultAutoBudgetSeconds(problem.units.size());
      GLPOOL_ASSIGN_OR_RETURN(AutoResult result, SolveOffsetsAuto(problem, seconds));
      return Planned{std::move(result.unit_offsets), result.chosen, result.proven_lower_bound,
                     result.repaired};
    }
  }
  return InvalidArgumentError("unknown offset strategy " + std::to_string(static_cast<int>(strategy)));
}

}  // namespace

StatusOr<OffsetPlan> PlanOffsets(const std::vector<ByteRecord>& records, OffsetStrategy strategy,
                                 const OffsetOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  GLPOOL_RETURN_IF_ERROR(Validate(records, options));
  const OffsetProblem problem = MakeOffsetProblem(records, options.alignment);
  GLPOOL_ASSIGN_OR_RETURN(Planned planned, Run(problem, strategy, options.budget_seconds));

  OffsetPlan plan;
  plan.assignment.offsets = ByteOffsets(problem, planned.unit_offsets);
  plan.assignment.total_size = ArenaBytes(problem, planned.unit_offsets);
  plan.chosen = planned.chosen;
  plan.repaired = planned.repaired;
  plan.lower_bound = OffsetsLowerBound(records);
  plan.proven_lower_bound = std::max(plan.lower_bound, planned.proven_lower_bound);
  plan.proven_optimal = plan.assignment.total_size <= plan.proven_lower_bound;
  plan.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return plan;
}

const char* OffsetStrategyName(OffsetStrategy strategy) {
  switch (strategy) {
    case OffsetStrategy::kGreedyBySize: return "greedy_by_size";
    case OffsetStrategy::kGreedyInOrder: return "greedy_in_order";
    case OffsetStrategy::kGreedyByBreadth: return "greedy_by_breadth";
    case OffsetStrategy::kStripPacking: return "strip_packing";
    case OffsetStrategy::kPeakFirst: return "peak_first";
    case OffsetStrategy::kObjectsToOffsets: return "objects_to_offsets";
    case OffsetStrategy::kExact: return "exact";
    case OffsetStrategy::kAuto: return "auto";
  }
  return "unknown";
}

StatusOr<OffsetStrategy> ParseOffsetStrategy(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string valid;
  for (OffsetStrategy s : AllOffsetStrategies()) {
    if (lower == OffsetStrategyName(s)) return s;
    valid += std::string(valid.empty() ? "" : ", ") + OffsetStrategyName(s);
  }
  return InvalidArgumentError("unknown offset strategy '" + name + "' (valid: " + valid + ")");
}

const std::vector<OffsetStrategy>& AllOffsetStrategies() {
  static const std::vector<OffsetStrategy> kAll = {
      OffsetStrategy::kGreedyBySize,    OffsetStrategy::kGreedyInOrder,
      OffsetStrategy::kGreedyByBreadth, OffsetStrategy::kStripPacking,
      OffsetStrategy::kPeakFirst,       OffsetStrategy::kObjectsToOffsets,
      OffsetStrategy::kExact,
      OffsetStrategy::kAuto,
  };
  return kAll;
}

}  // namespace glpool
