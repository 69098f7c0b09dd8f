#include "planner/objects_auto.h"

#include <algorithm>

#include "planner/lower_bounds.h"
#include "planner/objects_common.h"
#include "planner/objects_equality.h"
#include "planner/objects_greedy_by_breadth.h"
#include "planner/objects_greedy_by_size.h"
#include "planner/objects_greedy_in_order.h"
#include "planner/objects_improve.h"
#include "planner/objects_min_cost_flow.h"
#include "planner/objects_naive.h"
#include "planner/objects_search.h"
#include "planner/objects_window.h"

namespace glpool {

AutoObjectsResult PlanAutoObjects(const std::vector<ByteRecord>& records,
                                  const AutoObjectsOptions& options) {
  const std::vector<uint64_t> maxima = PositionalMaxima(records);
  uint64_t lower = 0;
  for (uint64_t l : maxima) lower += l;
  // A search node costs about one step per object, and plans need about as
  // many objects as tensors are ever live at once: scale the node budgets
  // so that the work, not the node count, stays bounded.
  const double per_object = 8.0 / static_cast<double>(std::max<size_t>(8, maxima.size()));
  auto budget = [per_object](uint64_t nodes) {
    return static_cast<uint64_t>(static_cast<double>(nodes) * per_object);
  };
  AutoObjectsResult best;
  uint64_t best_total = UINT64_MAX;
  uint64_t best_member_total = UINT64_MAX;
  // Members in AllObjectStrategies() order, so ties go to the earlier one.
  auto consider = [&](ObjectStrategy s, ObjectsAssignment<uint64_t> a) {
    const uint64_t total = SumObjectSizes(a);
    if (total < best_member_total) {
      best_member_total = total;
      best.base = s;
    }
    if (total < best_total) {
      best.assignment = std::move(a);
      best.refinement.clear();
      best_total = total;
    }
  };
  auto refine = [&](const std::vector<size_t>& ids, const char* pass) {
    ObjectsAssignment<uint64_t> a = AssignmentFromIds(records, ids);
    const uint64_t total = SumObjectSizes(a);
    if (total < best_total) {
      best.assignment = std::move(a);
      best.refinement = pass;
      best_total = total;
    }
  };
  auto settled = [&] {  // nothing can beat the best plan
    best.proven_optimal |= best_total <= lower;
    return best.proven_optimal;
  };

  consider(ObjectStrategy::kNaive, PlanNaiveObjects(records));
  consider(ObjectStrategy::kEquality, PlanEqualityObjects(records));
  const std::vector<std::pair<ObjectStrategy, ObjectsAssignment<uint64_t>>> greedy = {
      {ObjectStrategy::kGreedyInOrder, PlanGreedyInOrderObjects(records)},
      {ObjectStrategy::kGreedyByBreadth, PlanGreedyByBreadthObjects(records)},
      {ObjectStrategy::kGreedyBySize, PlanGreedyBySizeObjects(records)},
  };
  for (const auto& [strategy, plan] : greedy) consider(strategy, plan);
  if (settled()) return best;

  for (const auto& [strategy, plan] : greedy) {
    std::vector<size_t> ids = plan.object_ids;
    ImproveObjects(records, &ids);
    refine(ids, "local search");
  }
  if (settled()) return best;

  SearchOptions search;
  search.max_nodes = budget(options.search_nodes);
  search.incumbent_total = best_total;
  const SearchResult searched = SearchObjects(records, search);
  if (searched.found) refine(searched.ids, "branch and bound");
  // Proven optimal: no member, min-cost flow included, can do better.
  best.proven_optimal |= searched.proven_optimal;
  if (settled()) return best;

  consider(ObjectStrategy::kMinCostFlow, PlanMinCostFlowObjects(records));
  if (settled()) return best;

  ProfileSearchOptions profiles;
  profiles.nodes_per_profile = budget(options.profile_nodes_each);
  profiles.total_nodes = budget(options.profile_nodes);
  profiles.incumbent_total = best_total;
  const SearchResult profiled = SearchProfiles(records, profiles);
  if (profiled.found) refine(profiled.ids, "profile search");
  if (settled()) return best;

  WindowOptions windows;
  windows.total_nodes = budget(options.window_nodes);
  std::vector<size_t> ids = best.assignment.object_ids;
  ImproveByWindows(records, &ids, windows);
  ImproveObjects(records, &ids);
  refine(ids, "windows");
  return best;
}

}  // namespace glpool
