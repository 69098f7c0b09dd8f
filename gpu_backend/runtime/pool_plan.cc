#include "gpu_backend/runtime/pool_plan.h"

#include "planner/extents_planner.h"
#include "planner/lower_bounds.h"
#include "planner/objects_planner.h"
#include "planner/offsets_planner.h"
#include "planner/verifier.h"

namespace glpool {

std::vector<std::string> StrategyNamesFor(const std::string& object_kind) {
  std::vector<std::string> names;
  if (object_kind == "textures") {
    for (ExtentStrategy s : AllExtentStrategies()) names.push_back(ExtentStrategyName(s));
  } else if (object_kind == "arena") {
    names.push_back("naive");
    for (OffsetStrategy s : AllOffsetStrategies()) names.push_back(OffsetStrategyName(s));
  } else {
    for (ObjectStrategy s : AllObjectStrategies()) names.push_back(ObjectStrategyName(s));
  }
  return names;
}

StatusOr<ObjectPoolPlan> PlanBufferPool(const std::vector<ByteRecord>& records, const std::string& strategy) {
  GLPOOL_ASSIGN_OR_RETURN(ObjectStrategy parsed, ParseObjectStrategy(strategy));
  GLPOOL_ASSIGN_OR_RETURN(ObjectsPlan plan, PlanSharedObjects(records, parsed));
  GLPOOL_TRY_CONTEXT(VerifySharedObjects(records, plan.assignment), "the buffer pool plan failed verification");
  ObjectPoolPlan result;
  result.object_of = plan.assignment.object_ids;
  result.object_bytes = plan.assignment.object_sizes;
  result.chosen = ObjectStrategyName(plan.chosen);
  result.lower_bound = SharedObjectsLowerBound(records);
  return result;
}

StatusOr<ObjectPoolPlan> PlanTexturePool(const std::vector<Extent2DRecord>& records, const std::string& strategy) {
  GLPOOL_ASSIGN_OR_RETURN(ExtentStrategy parsed, ParseExtentStrategy(strategy));
  GLPOOL_ASSIGN_OR_RETURN(ExtentsPlan<Extent2D> plan, PlanExtents(records, parsed));
  GLPOOL_TRY_CONTEXT(VerifySharedObjects(records, plan.assignment), "the texture pool plan failed verification");
  ObjectPoolPlan result;
  result.object_of = plan.assignment.object_ids;
  result.object_extents = plan.assignment.object_sizes;
  result.chosen = ExtentStrategyName(plan.chosen);
  result.lower_bound = SharedObjectsLowerBoundTexels(records);
  return result;
}

StatusOr<ArenaPlan> PlanArena(const std::vector<ByteRecord>& records, const std::string& strategy,
                              uint64_t alignment, double budget_seconds) {
  ArenaPlan result;
  result.lower_bound = OffsetsLowerBound(records);
  auto offset_strategy = ParseOffsetStrategy(strategy);
  if (offset_strategy.ok()) {
    OffsetOptions options;
    options.alignment = alignment;
    options.budget_seconds = budget_seconds;
    GLPOOL_ASSIGN_OR_RETURN(OffsetPlan plan, PlanOffsets(records, *offset_strategy, options));
    result.offsets = plan.assignment.offsets;
    result.total_bytes = plan.assignment.total_size;
    result.chosen = OffsetStrategyName(plan.chosen);
  } else {
    // A shared-objects strategy: lay its objects end to end, each aligned.
    auto objects = PlanBufferPool(records, strategy);
    if (!objects.ok()) {
      return InvalidArgumentError("unknown strategy '" + strategy + "' for the arena");
    }
    std::vector<uint64_t> object_offset(objects->object_bytes.size());
    uint64_t end = 0;
    for (size_t k = 0; k < object_offset.size(); ++k) {
      object_offset[k] = (end + alignment - 1) / alignment * alignment;
      end = object_offset[k] + objects->object_bytes[k];
    }
    for (size_t i = 0; i < records.size(); ++i) result.offsets.push_back(object_offset[objects->object_of[i]]);
    result.total_bytes = end;
    result.chosen = objects->chosen + " (end to end)";
  }
  OffsetsAssignment assignment{result.offsets, result.total_bytes};
  GLPOOL_TRY_CONTEXT(VerifyOffsets(records, assignment, alignment), "the arena plan failed verification");
  return result;
}

}  // namespace glpool
