#include "planner/objects_certificate.h"

#include <algorithm>
#include <limits>

#include "planner/budget.h"
#include "planner/lower_bounds.h"
#include "planner/objects_search.h"
#include "planner/record_limits.h"

namespace glpool {

double ObjectsCertificate::gap() const {
  if (optimal() || floor == 0) return 0.0;
  return static_cast<double>(total) / static_cast<double>(floor) - 1.0;
}

StatusOr<ObjectsCertificate> CertifySharedObjects(const std::vector<ByteRecord>& records,
                                                  uint64_t plan_total, double budget_seconds) {
  GLPOOL_RETURN_IF_ERROR(CheckRecordLimits(records));
  if (!(budget_seconds > 0)) return InvalidArgumentError("certificate budget must be > 0 seconds");
  ObjectsCertificate certificate;
  certificate.total = plan_total;
  certificate.floor = std::min(plan_total, SharedObjectsLowerBound(records));
  if (certificate.optimal()) return certificate;

  const Deadline deadline(budget_seconds);
  SearchOptions search;
  search.max_nodes = std::numeric_limits<uint64_t>::max();
  search.incumbent_total = plan_total;
  search.deadline = &deadline;
  const SearchResult result = SearchObjects(records, search);
  certificate.nodes = result.nodes;
  if (result.found && result.total < plan_total) {
    certificate.improved = true;
    certificate.total = result.total;
    certificate.ids = result.ids;
  }
  certificate.floor = std::max(certificate.floor, std::min(result.proven_floor, certificate.total));
  if (result.proven_optimal) certificate.floor = certificate.total;
  return certificate;
}

}  // namespace glpool
