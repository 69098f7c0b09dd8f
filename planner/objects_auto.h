// AUTO shared objects: a portfolio that keeps the smallest total.
//  - Members: every named strategy (naive, equality, greedy in order, by
//    breadth, by size, min-cost flow), so AUTO is never larger than any.
//  - Improvement passes, each only ever lowering the total:
//    local search (relocate / exchange tails, objects_improve.h) from each
//    greedy plan; branch and bound (objects_search.h), which first tries to
//    fit the lower bound exactly and can prove the best plan optimal;
//    profile search (the lower bound's object sizes with one more object or
//    one raised size); window re-optimization (objects_window.h).
//  - Shortcuts that keep it fast without breaking "never larger": stop as
//    soon as a plan meets the lower bound, or once branch and bound proves
//    the best plan optimal (no strategy can then do better, min-cost flow
//    included).
//  - Work is bounded by node counts, not clocks, so the plan is the same on
//    every machine and under any load.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "planner/assignment.h"
#include "planner/objects_planner.h"
#include "planner/usage_record.h"

namespace glpool {

// Node budgets as for a plan needing up to 8 objects; record sets with more
// tensors live at once get proportionally fewer (nodes cost more there).
struct AutoObjectsOptions {
  uint64_t search_nodes = 8000;        // branch and bound
  uint64_t profile_nodes = 10000;      // profile search, in all
  uint64_t profile_nodes_each = 1000;  // per candidate profile
  uint64_t window_nodes = 10000;       // window re-optimization, in all
};

struct AutoObjectsResult {
  ObjectsAssignment<uint64_t> assignment;
  ObjectStrategy base = ObjectStrategy::kNaive;  // the best portfolio member
  std::string refinement;                        // the improvement pass that beat it, or ""
  // No plan of these records has a smaller total: the plan meets the lower
  // bound, or branch and bound exhausted every smaller total.
  bool proven_optimal = false;
};

AutoObjectsResult PlanAutoObjects(const std::vector<ByteRecord>& records,
                                  const AutoObjectsOptions& options = {});

}  // namespace glpool
