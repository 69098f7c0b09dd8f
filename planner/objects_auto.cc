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
#include "planner/verifier.h"

namespace glpool {

AutoObjectsResult PlanAutoObjects(const std::vector<ByteRecord>& records,
                                  const AutoObjectsOptions& options) {
  const Deadline deadline(options.budget_seconds);
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
  // Only verified plans are kept, so whatever the deadline cuts, the plan
  // returned is valid (the verifier costs O(n log n)).
  auto valid = [&](const ObjectsAssignment<uint64_t>& a) {
    return VerifySharedObjects(records, a).ok();
  };
  // Members in AllObjectStrategies() order, so ties go to the earlier one.
  auto consider = [&](ObjectStrategy s, ObjectsAssignment<uint64_t> a) {
    const uint64_t total = SumObjectSizes(a);
    if (total >= best_member_total || !valid(a)) return;
    best_member_total = total;
    best.base = s;
    if (total < best_total) {
      best.assignment = std::move(a);
      best.refinement.clear();
      best_total = total;
    }
  };
  auto refine = [&](const std::vector<size_t>& ids, const char* pass) {
    ObjectsAssignment<uint64_t> a = AssignmentFromIds(records, ids);
    const uint64_t total = SumObjectSizes(a);
    if (total < best_total && valid(a)) {
      best.assignment = std::move(a);
      best.refinement = pass;
      best_total = total;
    }
  };
  // Nothing can beat the best plan, or there is no time left to try.
  auto done = [&] {
    best.proven_optimal |= best_total <= lower;
    return best.proven_optimal || deadline.ExpiredNow();
  };

  // The members that cost O(n log n) (greedy by size: O(n (64 + m) log n))
  // always run: AUTO is never above any of them, whatever the budget.
  consider(ObjectStrategy::kNaive, PlanNaiveObjects(records));
  consider(ObjectStrategy::kEquality, PlanEqualityObjects(records));
  const std::vector<std::pair<ObjectStrategy, ObjectsAssignment<uint64_t>>> greedy = {
      {ObjectStrategy::kGreedyInOrder, PlanGreedyInOrderObjects(records)},
      {ObjectStrategy::kGreedyByBreadth, PlanGreedyByBreadthObjects(records)},
      {ObjectStrategy::kGreedyBySize, PlanGreedyBySizeObjects(records)},
  };
  for (const auto& [strategy, plan] : greedy) consider(strategy, plan);
  if (done()) return best;

  // Improvement only while the budget lasts, from the best greedy plan first.
  std::vector<const ObjectsAssignment<uint64_t>*> starts;
  for (const auto& member : greedy) starts.push_back(&member.second);
  std::stable_sort(starts.begin(), starts.end(), [](const auto* a, const auto* b) {
    return SumObjectSizes(*a) < SumObjectSizes(*b);
  });
  std::vector<size_t> ids;
  for (const ObjectsAssignment<uint64_t>* plan : starts) {
    if (done()) return best;
    ids = plan->object_ids;
    ImproveObjects(records, &ids, &deadline);
    refine(ids, "local search");
  }
  if (done()) return best;

  SearchOptions search;
  search.max_nodes = budget(options.search_nodes);
  search.incumbent_total = best_total;
  search.deadline = &deadline;
  const SearchResult searched = SearchObjects(records, search);
  if (searched.found) refine(searched.ids, "branch and bound");
  // Proven optimal: no member, min-cost flow included, can do better.
  best.proven_optimal |= searched.proven_optimal;
  if (done()) return best;

  // Min-cost flow has no deadline of its own and grows faster than n log n
  // (objects_min_cost_flow.h); past kMinCostFlowMaxRecords it is left out.
  if (records.size() <= options.min_cost_flow_max_records) {
    consider(ObjectStrategy::kMinCostFlow, PlanMinCostFlowObjects(records));
    if (done()) return best;
  }

  ProfileSearchOptions profiles;
  profiles.nodes_per_profile = budget(options.profile_nodes_each);
  profiles.total_nodes = budget(options.profile_nodes);
  profiles.incumbent_total = best_total;
  profiles.deadline = &deadline;
  const SearchResult profiled = SearchProfiles(records, profiles);
  if (profiled.found) refine(profiled.ids, "profile search");
  if (done()) return best;

  WindowOptions windows;
  windows.total_nodes = budget(options.window_nodes);
  windows.deadline = &deadline;
  ids = best.assignment.object_ids;
  ImproveByWindows(records, &ids, windows);
  ImproveObjects(records, &ids, &deadline);
  refine(ids, "windows");
  return best;
}

}  // namespace glpool
