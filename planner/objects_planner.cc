#include "planner/objects_planner.h"

#include <algorithm>
#include <cctype>

#include "planner/objects_auto.h"
#include "planner/objects_common.h"
#include "planner/objects_equality.h"
#include "planner/objects_greedy_by_breadth.h"
#include "planner/objects_greedy_by_size.h"
#include "planner/objects_greedy_in_order.h"
#include "planner/objects_min_cost_flow.h"
#include "planner/objects_naive.h"
#include "planner/record_limits.h"

namespace glpool {

StatusOr<ObjectsPlan> PlanSharedObjects(const std::vector<ByteRecord>& records,
                                        ObjectStrategy strategy, const ObjectOptions& options) {
  if (options.budget_seconds && !(*options.budget_seconds >= 0.0)) {
    return InvalidArgumentError("shared-objects budget must be >= 0 seconds, got " +
                                std::to_string(*options.budget_seconds));
  }
  GLPOOL_RETURN_IF_ERROR(CheckRecordLimits(records));
  ObjectsPlan plan;
  plan.chosen = strategy;
  switch (strategy) {
    case ObjectStrategy::kNaive:
      plan.assignment = PlanNaiveObjects(records);
      break;
    case ObjectStrategy::kEquality:
      plan.assignment = PlanEqualityObjects(records);
      break;
    case ObjectStrategy::kGreedyInOrder:
      plan.assignment = PlanGreedyInOrderObjects(records);
      break;
    case ObjectStrategy::kGreedyByBreadth:
      plan.assignment = PlanGreedyByBreadthObjects(records);
      break;
    case ObjectStrategy::kGreedyBySize:
      plan.assignment = PlanGreedyBySizeObjects(records);
      break;
    case ObjectStrategy::kMinCostFlow:
      plan.assignment = PlanMinCostFlowObjects(records);
      break;
    case ObjectStrategy::kAuto: {
      AutoObjectsOptions auto_options;
      auto_options.budget_seconds = options.budget_seconds
                                        ? *options.budget_seconds
                                        : DefaultAutoBudgetSeconds(records.size());
      AutoObjectsResult result = PlanAutoObjects(records, auto_options);
      plan.assignment = std::move(result.assignment);
      plan.chosen = result.base;
      plan.refinement = result.refinement;
      plan.proven_optimal = result.proven_optimal;
      break;
    }
    default:
      return InvalidArgumentError("unknown shared-objects strategy " +
                                  std::to_string(static_cast<int>(strategy)));
  }
  return plan;
}

const char* ObjectStrategyName(ObjectStrategy strategy) {
  switch (strategy) {
    case ObjectStrategy::kNaive:
      return "naive";
    case ObjectStrategy::kEquality:
      return "equality";
    case ObjectStrategy::kGreedyInOrder:
      return "greedy_in_order";
    case ObjectStrategy::kGreedyByBreadth:
      return "greedy_by_breadth";
    case ObjectStrategy::kGreedyBySize:
      return "greedy_by_size";
    case ObjectStrategy::kMinCostFlow:
      return "min_cost_flow";
    case ObjectStrategy::kAuto:
      return "auto";
  }
  return "unknown";
}

StatusOr<ObjectStrategy> ParseObjectStrategy(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string known;
  for (ObjectStrategy s : AllObjectStrategies()) {
    if (lower == ObjectStrategyName(s)) return s;
    known += known.empty() ? "" : ", ";
    known += ObjectStrategyName(s);
  }
  return InvalidArgumentError("unknown shared-objects strategy \"" + name + "\" (known: " + known +
                              ")");
}

const std::vector<ObjectStrategy>& AllObjectStrategies() {
  static const std::vector<ObjectStrategy> all = {
      ObjectStrategy::kNaive,         ObjectStrategy::kEquality,
      ObjectStrategy::kGreedyInOrder, ObjectStrategy::kGreedyByBreadth,
      ObjectStrategy::kGreedyBySize,  ObjectStrategy::kMinCostFlow,
      ObjectStrategy::kAuto};
  return all;
}

uint64_t TotalBytes(const ObjectsAssignment<uint64_t>& assignment) {
  return SumObjectSizes(assignment);
}

}  // namespace glpool
