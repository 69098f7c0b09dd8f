// The public entry for shared-objects planning of byte sizes (SSBOs, or any
// pool of fixed-size buffers): pick a strategy by name or enum, get a plan.
//
// Every strategy returns a valid plan for well-formed records (first_task <=
// last_task): records that overlap in tasks never share an object, and each
// object is exactly as large as its largest tensor. Malformed records are an
// InvalidArgument error naming the first bad record.
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

enum class ObjectStrategy {
  kNaive,            // one object per tensor
  kEquality,         // reuse only an object of exactly the same size
  kGreedyInOrder,    // by first task, best-fit among released objects
  kGreedyByBreadth,  // busiest tasks first, best fit
  kGreedyBySize,     // positional maxima + distance priority
  kMinCostFlow,      // chains of tensors by a min-cost flow
  kAuto,             // the smallest of a portfolio (all of the above and more)
};

struct ObjectsPlan {
  ObjectsAssignment<uint64_t> assignment;
  // The strategy asked for; for kAuto, the portfolio member that won (the
  // first, in AllObjectStrategies() order, among those tied for smallest).
  ObjectStrategy chosen = ObjectStrategy::kNaive;
  // For kAuto when an improvement pass beat every member: `chosen` is the
  // best member and this names the pass ("" otherwise).
  std::string refinement;
  // kAuto only: no plan of these records has a smaller total (it meets the
  // lower bound, or its search proved it). False means "not known".
  bool proven_optimal = false;
};

struct ObjectOptions {
  // Budget for AUTO in CPU seconds, >= 0 (the other strategies are single
  // greedy passes and ignore it). Unset: DefaultAutoBudgetSeconds(records)
  // (planner/budget.h). AUTO returns its best verified plan by then: it
  // always runs its O(n log n) members, the rest only while time is left.
  std::optional<double> budget_seconds;
};

StatusOr<ObjectsPlan> PlanSharedObjects(const std::vector<ByteRecord>& records,
                                        ObjectStrategy strategy,
                                        const ObjectOptions& options = {});

// "naive", "equality", "greedy_in_order", "greedy_by_breadth",
// "greedy_by_size", "min_cost_flow", "auto".
const char* ObjectStrategyName(ObjectStrategy strategy);

// Case-insensitive: "GREEDY_BY_SIZE" and "greedy_by_size" both parse.
StatusOr<ObjectStrategy> ParseObjectStrategy(const std::string& name);

// Every strategy, kAuto last: the order reports list them in.
const std::vector<ObjectStrategy>& AllObjectStrategies();

// Sum of the object sizes: the memory the plan allocates.
uint64_t TotalBytes(const ObjectsAssignment<uint64_t>& assignment);

}  // namespace glpool
