// Renderings of PlanReport (plan_report.h): the JSON that scripts rely on,
// the table people read, and the markdown memory table bench/ publishes.
#pragma once

#include <string>
#include <vector>

#include "planner/plan_report.h"

namespace glpool {

// Exactly:
// {"model": str, "tensors": int, "naive_bytes": int,
//  "shared_objects": {"lower_bound_bytes": int,
//                     "strategies": [{"name": str, "total_bytes": int,
//                                     "objects": int, "ms": float,
//                                     "verified": bool,
//                                     "detail": str (only where the table
//                                     row has one: AUTO's winner, proofs,
//                                     certificates)}, ...],
//                     "auto_choice": str},
//  "offsets": {same shape}}
// on one line (indent < 0) or pretty-printed.
std::string PlanReportJson(const PlanReport& report, int indent = -1);

// Two tables (shared objects, offsets): per strategy the total in MB (1e6
// bytes), % of naive, ratio to the lower bound, object count, planning ms,
// verified; errors and AUTO's choice under them, then a certificate line:
// "proven optimal" for the best verified plan, or its gap to the lower bound.
std::string PlanReportTable(const PlanReport& report);

// One markdown table per section over many reports: a row per model with
// naive, the lower bound and every strategy's total in MB, the best
// non-AUTO strategy and AUTO's gap to the bound; a geometric-mean gap row.
std::string PlanReportsMarkdown(const std::vector<PlanReport>& reports);

}  // namespace glpool
