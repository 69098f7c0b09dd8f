#include "planner/plan_report.h"

#include <cctype>
#include <chrono>

#include "planner/lower_bounds.h"
#include "planner/objects_certificate.h"
#include "planner/record_limits.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// ", certificate: ..." for an AUTO plan not yet proven optimal.
std::string CertificateDetail(const RecordSet& set, uint64_t total, double seconds) {
  StatusOr<ObjectsCertificate> certificate = CertifySharedObjects(set.records, total, seconds);
  if (!certificate.ok()) return ", certificate: " + certificate.status().ToString();
  char text[160];
  if (certificate->optimal() && !certificate->improved) {
    return ", proven optimal by the certificate search";
  }
  if (certificate->improved) {
    std::snprintf(text, sizeof(text), ", the certificate search found a plan of %llu bytes%s",
                  static_cast<unsigned long long>(certificate->total),
                  certificate->optimal() ? " and proved it optimal" : "");
    return text;
  }
  std::snprintf(text, sizeof(text), ", certified gap %.3f%% (no plan below %llu bytes)", 100.0 * certificate->gap(),
                static_cast<unsigned long long>(certificate->floor));
  return text;
}

StrategyRow PlanObjectsRow(const RecordSet& set, ObjectStrategy strategy,
                           const ObjectOptions& options, double certify_seconds, std::string* auto_choice) {
  StrategyRow row;
  row.name = ObjectStrategyName(strategy);
  const auto start = std::chrono::steady_clock::now();
  StatusOr<ObjectsPlan> plan = PlanSharedObjects(set.records, strategy, options);
  row.ms = MillisecondsSince(start);
  if (!plan.ok()) {
    row.error = plan.status().ToString();
    return row;
  }
  row.total_bytes = TotalBytes(plan->assignment);
  row.objects = plan->assignment.object_sizes.size();
  const Status verified = VerifySharedObjects(set.records, plan->assignment, &set.names);
  row.verified = verified.ok();
  if (!verified.ok()) row.error = verified.ToString();
  if (strategy == ObjectStrategy::kAuto) {
    *auto_choice = ObjectStrategyName(plan->chosen);
    row.detail = *auto_choice;
    if (!plan->refinement.empty()) row.detail += " + " + plan->refinement;
    if (plan->proven_optimal) {
      row.detail += ", proven optimal";
    } else if (certify_seconds > 0) {
      row.detail += CertificateDetail(set, row.total_bytes, certify_seconds);
    }
  }
  return row;
}

StrategyRow PlanOffsetsRow(const RecordSet& set, OffsetStrategy strategy,
                           const OffsetOptions& options, std::string* auto_choice) {
  StrategyRow row;
  row.name = OffsetStrategyName(strategy);
  const auto start = std::chrono::steady_clock::now();
  StatusOr<OffsetPlan> plan = PlanOffsets(set.records, strategy, options);
  row.ms = MillisecondsSince(start);
  if (!plan.ok()) {
    row.error = plan.status().ToString();
    return row;
  }
  row.total_bytes = plan->assignment.total_size;
  row.objects = set.records.empty() ? 0 : 1;
  const Status verified =
      VerifyOffsets(set.records, plan->assignment, options.alignment, &set.names);
  row.verified = verified.ok();
  if (!verified.ok()) row.error = verified.ToString();
  if (strategy == OffsetStrategy::kAuto) {
    *auto_choice = OffsetStrategyName(plan->chosen);
    row.detail = *auto_choice;
  }
  if (plan->proven_optimal) {
    row.detail += row.detail.empty() ? "proven optimal" : ", proven optimal";
  }
  return row;
}

}  // namespace

bool PlanReport::AllVerified() const {
  for (const PlanSection* section : {&shared_objects, &offsets}) {
    for (const StrategyRow& row : section->strategies) {
      if (!row.verified) return false;
    }
  }
  return true;
}

Status SelectStrategies(const std::string& name, PlanReportOptions* options) {
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "all") {
    options->object_strategies = AllObjectStrategies();
    options->offset_strategies = AllOffsetStrategies();
    return Status::Ok();
  }
  StatusOr<ObjectStrategy> object = ParseObjectStrategy(name);
  StatusOr<OffsetStrategy> offset = ParseOffsetStrategy(name);
  if (!object.ok() && !offset.ok()) {
    std::string known = "all";
    for (ObjectStrategy s : AllObjectStrategies())
      known += std::string(", ") + ObjectStrategyName(s);
    for (OffsetStrategy s : AllOffsetStrategies()) {
      if (!ParseObjectStrategy(OffsetStrategyName(s)).ok()) {
        known += std::string(", ") + OffsetStrategyName(s);
      }
    }
    return InvalidArgumentError("unknown strategy \"" + name + "\" (known: " + known + ")");
  }
  options->object_strategies.clear();
  options->offset_strategies.clear();
  if (object.ok()) options->object_strategies.push_back(*object);
  if (offset.ok()) options->offset_strategies.push_back(*offset);
  return Status::Ok();
}

StatusOr<PlanReport> BuildPlanReport(const RecordSet& set, const PlanReportOptions& options) {
  GLPOOL_RETURN_IF_ERROR(CheckRecordLimits(set.records, &set.names));
  PlanReport report;
  report.model = set.model;
  report.tensors = set.records.size();
  report.naive_bytes = NaiveBytes(set.records);
  report.shared_objects.lower_bound_bytes = SharedObjectsLowerBound(set.records);
  report.offsets.lower_bound_bytes = OffsetsLowerBound(set.records);
  for (ObjectStrategy s : options.object_strategies) {
    report.shared_objects.strategies.push_back(
        PlanObjectsRow(set, s, options.objects, options.certify_seconds, &report.shared_objects.auto_choice));
  }
  for (OffsetStrategy s : options.offset_strategies) {
    report.offsets.strategies.push_back(
        PlanOffsetsRow(set, s, options.offsets, &report.offsets.auto_choice));
  }
  return report;
}

}  // namespace glpool
