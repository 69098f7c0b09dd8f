// Exact search for shared-objects plans of byte sizes, used by AUTO.
//
// Branch and bound:
//  - Tensors are placed in order of first task (ties: larger first). At each
//    step an object is free when its last tensor has ended; free objects of
//    equal size are interchangeable (their futures are identical), so the
//    branches are one per distinct free size (fitting ones smallest first,
//    then growing ones largest first), then a new object.
//  - Bound: with current object sizes c_1 >= c_2 >= ... and the positional
//    maxima L_k of the lower bound, every completion costs at least
//    sum_k max(c_k, L_k): objects only grow, and the k-th largest final
//    object is >= L_k (lower_bounds.h).
//  - Probes ask "is there a plan of total <= T?" (a probe stops at its
//    first plan). The first probe asks for the lower bound itself, which
//    prunes every growth past the bound's profile at once, so it is cheap
//    and finds an exact fit when there is one; later probes bisect between
//    the proven floor and the best plan. A failed probe proves a floor: the
//    least bound among the branches it cut.
//  - Memo: a state (depth; each object's size, and busy-until while busy)
//    remembers the floor proven under it, so equivalent partial plans
//    reached in other orders, or by later probes, are cut at once.
//  - Work is bounded by a node count and a deadline; when either runs out,
//    the best plan found so far (if any) is returned and optimality is not
//    claimed.
//
// Profile search: instead of a total, fix the object sizes. A candidate
// profile is the positional maxima with one more object of a tensor's size,
// or with one maximum raised to a larger tensor size; a probe checks whether
// some plan's sorted sizes stay within the profile. Fitting is monotone in
// the added or raised size, so each family is binary searched. Near-optimal
// plans of networks are often exactly "the lower bound plus one object".
#pragma once

#include <cstdint>
#include <vector>

#include "planner/budget.h"
#include "planner/usage_record.h"

namespace glpool {

struct SearchOptions {
  uint64_t max_nodes = 200000;
  // A known plan's total (0: none); only plans strictly below it are wanted.
  uint64_t incumbent_total = 0;
  // Stops the search when it expires (null: node count only).
  const Deadline* deadline = nullptr;
};

struct SearchResult {
  bool found = false;           // a plan below incumbent_total was found
  bool proven_optimal = false;  // nothing below min(found, incumbent) exists
  // No plan totals less than this (the positional maxima's sum at least;
  // what failed probes proved beyond it). SearchObjects only.
  uint64_t proven_floor = 0;
  std::vector<size_t> ids;      // tensor -> object, when found
  uint64_t total = 0;
  uint64_t nodes = 0;
};

SearchResult SearchObjects(const std::vector<ByteRecord>& records, const SearchOptions& options);

struct ProfileSearchOptions {
  uint64_t nodes_per_profile = 2000;
  uint64_t total_nodes = 16000;
  uint64_t incumbent_total = 0;  // only plans strictly below it are wanted
  const Deadline* deadline = nullptr;  // stops the search when it expires
};

SearchResult SearchProfiles(const std::vector<ByteRecord>& records,
                            const ProfileSearchOptions& options);

}  // namespace glpool
