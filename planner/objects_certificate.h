// A certificate for a shared-objects plan: either a proof that no plan of
// the records is smaller, or a proven floor that states the plan's gap.
//
// The branch and bound of objects_search.h runs without AUTO's node limits,
// for as long as the budget allows, asked only for plans below the given
// total. Its failed probes prove floors; when the floor reaches the total,
// the plan is optimal. If the search finds a smaller plan on the way, the
// certificate reports that plan's total (and its object of each tensor).
// The floor is never below the positional-maxima lower bound
// (lower_bounds.h), so a search cut short still states a gap.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "planner/usage_record.h"

namespace glpool {

struct ObjectsCertificate {
  uint64_t total = 0;  // the best plan known: the given one, or one the search found
  uint64_t floor = 0;  // no plan of the records totals less
  bool improved = false;   // the search found a plan below the given total
  std::vector<size_t> ids;  // when improved: tensor -> object of that plan
  uint64_t nodes = 0;
  bool optimal() const { return floor >= total; }
  // total / floor - 1 (0 when optimal).
  double gap() const;
};

// `plan_total`: the total of a valid plan of `records` (AUTO's, say).
// `budget_seconds`: CPU time for the search (> 0). Records past the
// search's size limit get the lower bound alone as their floor.
StatusOr<ObjectsCertificate> CertifySharedObjects(const std::vector<ByteRecord>& records,
                                                  uint64_t plan_total, double budget_seconds);

}  // namespace glpool
