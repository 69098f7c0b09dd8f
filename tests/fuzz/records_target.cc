// Fuzz target: usage records JSON (planner/records_json.h) -> every
// shared-objects, extents and offsets strategy -> the verifier.
//
// The planner reads records only as JSON in this tree (no CSV form), so the
// bytes are JSON text. Every plan a strategy returns must pass the
// independent verifier and respect the lower bounds; every rejection must be
// a clean Status. Budgets are small so one input takes milliseconds: the
// point is reaching every code path, not finding good plans.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "planner/extents_planner.h"
#include "planner/lower_bounds.h"
#include "planner/objects_auto.h"
#include "planner/objects_planner.h"
#include "planner/offsets_planner.h"
#include "planner/records_json.h"
#include "planner/verifier.h"
#include "tests/fuzz/fuzz_check.h"

namespace glpool::fuzz {
namespace {

// Whether the record sizes add up without passing 2^64; totals and bounds
// are only comparable when they do.
bool SizesFit(const std::vector<ByteRecord>& records) {
  uint64_t sum = 0;
  for (const ByteRecord& r : records) {
    if (__builtin_add_overflow(sum, r.size, &sum)) return false;
  }
  return true;
}

void PlanObjects(const RecordSet& set, bool sizes_fit) {
  const uint64_t lower_bound = sizes_fit ? SharedObjectsLowerBound(set.records) : 0;
  for (ObjectStrategy strategy : AllObjectStrategies()) {
    ObjectsAssignment<uint64_t> assignment;
    if (strategy == ObjectStrategy::kAuto) {
      // The public entry's default budgets are sized for real models; the
      // same code with a hundredth of the nodes keeps an input fast.
      AutoObjectsOptions small;
      small.search_nodes = 80;
      small.profile_nodes = 100;
      small.profile_nodes_each = 10;
      small.window_nodes = 100;
      assignment = PlanAutoObjects(set.records, small).assignment;
    } else {
      StatusOr<ObjectsPlan> plan = PlanSharedObjects(set.records, strategy);
      if (!plan.ok()) {
        CheckCleanError(plan.status());
        continue;
      }
      assignment = plan->assignment;
    }
    const Status verified = VerifySharedObjects(set.records, assignment, &set.names);
    FUZZ_CHECK(verified.ok(), std::string(ObjectStrategyName(strategy)) + ": " + verified.ToString());
    if (sizes_fit) {
      FUZZ_CHECK(TotalBytes(assignment) >= lower_bound, ObjectStrategyName(strategy));
    }
  }
}

// Texture extents from the byte sizes: the low bits give the width, the
// next the height and depth, so one record set exercises all three planners.
template <typename Extent>
void PlanExtentsOf(const RecordSet& set, Extent (*to_extent)(uint64_t)) {
  std::vector<UsageRecord<Extent>> records;
  for (const ByteRecord& r : set.records) records.push_back({to_extent(r.size), r.first_task, r.last_task});
  for (ExtentStrategy strategy : AllExtentStrategies()) {
    auto plan = PlanExtents(records, strategy);
    if (!plan.ok()) {
      CheckCleanError(plan.status());
      continue;
    }
    const Status verified = VerifySharedObjects(records, plan->assignment, &set.names);
    FUZZ_CHECK(verified.ok(), std::string(ExtentStrategyName(strategy)) + ": " + verified.ToString());
  }
}

Extent2D To2D(uint64_t size) { return {size & 0xffff, (size >> 16) & 0xffff}; }
Extent3D To3D(uint64_t size) { return {size & 0x3ff, (size >> 10) & 0x3ff, (size >> 20) & 0xff}; }

void PlanArena(const RecordSet& set, bool sizes_fit) {
  for (uint64_t alignment : {uint64_t{1}, uint64_t{64}}) {
    OffsetOptions options;
    options.alignment = alignment;
    // EXACT searches until its budget runs out whenever the heuristics miss
    // the lower bound; a clock budget would cap the fuzzer at a few hundred
    // inputs a second. Small sets search for real (they finish or hit the
    // budget quickly), larger ones stop at the first budget check.
    options.budget_seconds = set.records.size() <= 12 ? 0.0005 : 0.0;
    for (OffsetStrategy strategy : AllOffsetStrategies()) {
      StatusOr<OffsetPlan> plan = PlanOffsets(set.records, strategy, options);
      if (!plan.ok()) {
        CheckCleanError(plan.status());
        continue;
      }
      const Status verified = VerifyOffsets(set.records, plan->assignment, alignment, &set.names);
      FUZZ_CHECK(verified.ok(), std::string(OffsetStrategyName(strategy)) + ": " + verified.ToString());
      FUZZ_CHECK(plan->assignment.total_size >= plan->proven_lower_bound, OffsetStrategyName(strategy));
      if (sizes_fit) FUZZ_CHECK(plan->proven_lower_bound >= plan->lower_bound, OffsetStrategyName(strategy));
    }
  }
}

}  // namespace
}  // namespace glpool::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace glpool;
  StatusOr<RecordSet> set = ParseRecordsJson(std::string(reinterpret_cast<const char*>(data), size), "<fuzz>");
  if (!set.ok()) {
    fuzz::CheckCleanError(set.status());
    return 0;
  }
  FUZZ_CHECK(set->names.size() == set->records.size(), "one name per record");
  const bool sizes_fit = fuzz::SizesFit(set->records);
  fuzz::PlanObjects(*set, sizes_fit);
  fuzz::PlanExtentsOf<Extent2D>(*set, fuzz::To2D);
  fuzz::PlanExtentsOf<Extent3D>(*set, fuzz::To3D);
  fuzz::PlanArena(*set, sizes_fit);
  return 0;
}
