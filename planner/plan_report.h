// One record set planned every way we know, verified, measured: what
// `glpool plan` prints and what bench/ tabulates. Records come from a zoo
// JSON file today and from a compiled model later; the report does not care.
//
// Every plan is checked by the independent verifier (verifier.h); a plan
// that fails, or a strategy that returns an error, is still reported, with
// verified = false and the error text, so a caller can fail loudly without
// losing the rest of the table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "planner/objects_planner.h"
#include "planner/offsets_planner.h"
#include "planner/usage_record.h"

namespace glpool {

struct StrategyRow {
  std::string name;
  uint64_t total_bytes = 0;
  // Shared objects: how many objects the plan allocates. Offsets: the number
  // of GL buffers, 1 (the arena) or 0 with no tensors.
  size_t objects = 0;
  double ms = 0.0;  // wall-clock planning time
  bool verified = false;
  std::string error;   // planning or verification failure, "" when fine
  std::string detail;  // e.g. AUTO's winner, "proven optimal"
};

struct PlanSection {
  uint64_t lower_bound_bytes = 0;
  std::vector<StrategyRow> strategies;
  std::string auto_choice;  // the member AUTO kept; "" when AUTO was not run
};

struct PlanReport {
  std::string model;
  size_t tensors = 0;
  uint64_t naive_bytes = 0;  // one object per tensor
  PlanSection shared_objects;
  PlanSection offsets;

  // True when every plan was produced and passed the verifier.
  bool AllVerified() const;
};

struct PlanReportOptions {
  std::vector<ObjectStrategy> object_strategies = AllObjectStrategies();
  std::vector<OffsetStrategy> offset_strategies = AllOffsetStrategies();
  ObjectOptions objects;  // AUTO's time budget
  OffsetOptions offsets;  // alignment, AUTO's and EXACT's time budget
  // > 0: AUTO's shared-objects plan, when not already proven optimal, gets a
  // certificate search of this many CPU seconds (objects_certificate.h); its
  // verdict joins the AUTO row's detail.
  double certify_seconds = 0.0;
};

// Selects strategies by one name: "all", or a name of a shared-objects
// and/or an offsets strategy (e.g. "greedy_by_size" and "auto" exist in
// both, "min_cost_flow" only in the first), case-insensitive. Unknown names
// are an InvalidArgument error listing the valid ones.
Status SelectStrategies(const std::string& name, PlanReportOptions* options);

// Malformed records (last < first) are an InvalidArgument error; everything
// after that is reported, not returned as an error.
StatusOr<PlanReport> BuildPlanReport(const RecordSet& records, const PlanReportOptions& options);

}  // namespace glpool
