// AUTO shared objects: an anytime portfolio that keeps the smallest total.
//  - Members that always run, cheapest first: naive, equality, greedy in
//    order, by breadth, by size (each O(n log n), by size O(n (64 + m)
//    log n)), so AUTO is never larger than any greedy strategy whatever its
//    budget. Min-cost flow (grows faster) runs only on up to
//    min_cost_flow_max_records records and while time is left; there AUTO is
//    never larger than it either.
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
//  - Everything after the greedy members runs only while the CPU-time
//    budget lasts (planner/budget.h; the default scales with the record
//    count) and each search also keeps its node budget, so no input makes it
//    run on. With a generous budget (every zoo network finishes its node
//    budgets in well under the default) the plan is the same on every
//    machine; when the deadline cuts a search, how far it got depends on the
//    machine and its load.
//  - Every plan kept has passed the verifier (O(n log n)), so the plan
//    returned at the deadline is the best verified one.
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
  double budget_seconds = 1e9;         // CPU seconds (planner/budget.h)
  size_t min_cost_flow_max_records = 2000;
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
