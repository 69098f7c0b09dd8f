#include "planner/extents_planner.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace glpool {
namespace {

Extent2D Grow(const Extent2D& a, const Extent2D& b) { return {std::max(a.w, b.w), std::max(a.h, b.h)}; }
Extent3D Grow(const Extent3D& a, const Extent3D& b) {
  return {std::max(a.w, b.w), std::max(a.h, b.h), std::max(a.d, b.d)};
}
bool Covers(const Extent2D& object, const Extent2D& tensor) { return object.w >= tensor.w && object.h >= tensor.h; }
bool Covers(const Extent3D& object, const Extent3D& tensor) {
  return object.w >= tensor.w && object.h >= tensor.h && object.d >= tensor.d;
}

// No GPU has textures more than 65536 texels a side; the cap keeps every
// texel count (and sum of them) well inside 64 bits.
constexpr uint64_t kMaxExtentSide = uint64_t{1} << 16;
constexpr uint64_t kMaxTotalTexels = uint64_t{1} << 56;
bool WithinExtentLimit(const Extent2D& e) { return e.w <= kMaxExtentSide && e.h <= kMaxExtentSide; }
bool WithinExtentLimit(const Extent3D& e) {
  return e.w <= kMaxExtentSide && e.h <= kMaxExtentSide && e.d <= kMaxExtentSide;
}

template <typename Extent>
Status Validate(const std::vector<UsageRecord<Extent>>& records) {
  uint64_t texels = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].last_task < records[i].first_task) {
      return InvalidArgumentError("record " + std::to_string(i) + ": last task " +
                                  std::to_string(records[i].last_task) + " is before first task " +
                                  std::to_string(records[i].first_task));
    }
    if (!WithinExtentLimit(records[i].size)) {
      return InvalidArgumentError("record " + std::to_string(i) + " has a side longer than " +
                                  std::to_string(kMaxExtentSide) + " texels");
    }
    if (Texels(records[i].size) == 0) {
      return InvalidArgumentError("record " + std::to_string(i) + " has an empty extent");
    }
    texels += Texels(records[i].size);  // at most 2^48 each: no wrap before the check below
    if (texels > kMaxTotalTexels) {
      return InvalidArgumentError("the records up to record " + std::to_string(i) + " add up to more than " +
                                  std::to_string(kMaxTotalTexels) + " texels");
    }
  }
  return Status::Ok();
}

template <typename Extent>
ObjectsAssignment<Extent> Naive(const std::vector<UsageRecord<Extent>>& records) {
  ObjectsAssignment<Extent> plan;
  for (size_t i = 0; i < records.size(); ++i) {
    plan.object_ids.push_back(i);
    plan.object_sizes.push_back(records[i].size);
  }
  return plan;
}

// Equality and greedy-in-order walk tensors by first task and reuse objects
// released before it; they differ only in which released object may serve.
template <typename Extent, typename Pick>
ObjectsAssignment<Extent> InOrder(const std::vector<UsageRecord<Extent>>& records, Pick pick) {
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return records[a].first_task < records[b].first_task; });
  ObjectsAssignment<Extent> plan;
  plan.object_ids.assign(records.size(), 0);
  std::vector<TaskId> busy_until;  // per object: last task of its latest tensor
  for (size_t i : order) {
    const UsageRecord<Extent>& r = records[i];
    size_t best = plan.object_sizes.size();
    uint64_t best_waste = 0;
    for (size_t k = 0; k < plan.object_sizes.size(); ++k) {
      if (busy_until[k] >= r.first_task || !pick(plan.object_sizes[k], r.size)) continue;
      const uint64_t waste = Texels(plan.object_sizes[k]) - Texels(r.size);
      if (best == plan.object_sizes.size() || waste < best_waste) {
        best = k;
        best_waste = waste;
      }
    }
    if (best == plan.object_sizes.size()) {
      plan.object_sizes.push_back(r.size);
      busy_until.push_back(r.last_task);
    }
    plan.object_ids[i] = best;
    busy_until[best] = r.last_task;
  }
  return plan;
}

template <typename Extent>
ObjectsAssignment<Extent> BySize(const std::vector<UsageRecord<Extent>>& records) {
  std::vector<size_t> order(records.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return Texels(records[a].size) > Texels(records[b].size); });
  ObjectsAssignment<Extent> plan;
  plan.object_ids.assign(records.size(), 0);
  std::vector<std::vector<size_t>> hosted;  // per object: its tensors
  auto overlaps = [&](size_t a, size_t b) {
    return records[a].first_task <= records[b].last_task && records[b].first_task <= records[a].last_task;
  };
  for (size_t i : order) {
    size_t best = plan.object_sizes.size();
    uint64_t best_growth = 0, best_texels = 0;
    for (size_t k = 0; k < plan.object_sizes.size(); ++k) {
      bool free = true;
      for (size_t other : hosted[k]) free = free && !overlaps(i, other);
      if (!free) continue;
      const uint64_t before = Texels(plan.object_sizes[k]);
      const uint64_t after = Texels(Grow(plan.object_sizes[k], records[i].size));
      const uint64_t growth = after - before;
      if (growth >= Texels(records[i].size)) continue;  // a new object is no worse
      if (best == plan.object_sizes.size() || growth < best_growth ||
          (growth == best_growth && before < best_texels)) {
        best = k;
        best_growth = growth;
        best_texels = before;
      }
    }
    if (best == plan.object_sizes.size()) {
      plan.object_sizes.push_back(records[i].size);
      hosted.emplace_back();
    } else {
      plan.object_sizes[best] = Grow(plan.object_sizes[best], records[i].size);
    }
    plan.object_ids[i] = best;
    hosted[best].push_back(i);
  }
  return plan;
}

template <typename Extent>
uint64_t Total(const ObjectsAssignment<Extent>& plan) {
  uint64_t total = 0;
  for (const Extent& e : plan.object_sizes) total += Texels(e);
  return total;
}

template <typename Extent>
ObjectsAssignment<Extent> Run(const std::vector<UsageRecord<Extent>>& records, ExtentStrategy strategy) {
  switch (strategy) {
    case ExtentStrategy::kNaive: return Naive(records);
    case ExtentStrategy::kEquality:
      return InOrder(records, [](const Extent& object, const Extent& tensor) { return object == tensor; });
    case ExtentStrategy::kGreedyInOrder:
      return InOrder(records, [](const Extent& object, const Extent& tensor) { return Covers(object, tensor); });
    case ExtentStrategy::kGreedyBySize: return BySize(records);
    case ExtentStrategy::kAuto: break;
  }
  return Naive(records);
}

template <typename Extent>
StatusOr<ExtentsPlan<Extent>> Plan(const std::vector<UsageRecord<Extent>>& records, ExtentStrategy strategy) {
  GLPOOL_RETURN_IF_ERROR(Validate(records));
  ExtentsPlan<Extent> result;
  if (strategy != ExtentStrategy::kAuto) {
    result.assignment = Run(records, strategy);
    result.chosen = strategy;
    return result;
  }
  bool first = true;
  for (ExtentStrategy member : AllExtentStrategies()) {
    if (member == ExtentStrategy::kAuto) continue;
    ObjectsAssignment<Extent> candidate = Run(records, member);
    if (first || Total(candidate) < Total(result.assignment)) {
      result.assignment = std::move(candidate);
      result.chosen = member;
      first = false;
    }
  }
  return result;
}

}  // namespace

StatusOr<ExtentsPlan<Extent2D>> PlanExtents(const std::vector<Extent2DRecord>& records, ExtentStrategy strategy) {
  return Plan(records, strategy);
}

StatusOr<ExtentsPlan<Extent3D>> PlanExtents(const std::vector<Extent3DRecord>& records, ExtentStrategy strategy) {
  return Plan(records, strategy);
}

uint64_t TotalTexels(const ObjectsAssignment<Extent2D>& assignment) { return Total(assignment); }
uint64_t TotalTexels(const ObjectsAssignment<Extent3D>& assignment) { return Total(assignment); }

const char* ExtentStrategyName(ExtentStrategy strategy) {
  switch (strategy) {
    case ExtentStrategy::kNaive: return "naive";
    case ExtentStrategy::kEquality: return "equality";
    case ExtentStrategy::kGreedyInOrder: return "greedy_in_order";
    case ExtentStrategy::kGreedyBySize: return "greedy_by_size";
    case ExtentStrategy::kAuto: return "auto";
  }
  return "unknown";
}

StatusOr<ExtentStrategy> ParseExtentStrategy(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (ExtentStrategy strategy : AllExtentStrategies()) {
    if (lower == ExtentStrategyName(strategy)) return strategy;
  }
  return InvalidArgumentError("unknown texture strategy '" + name +
                              "' (expected naive, equality, greedy_in_order, greedy_by_size or auto)");
}

const std::vector<ExtentStrategy>& AllExtentStrategies() {
  static const std::vector<ExtentStrategy> all = {ExtentStrategy::kNaive, ExtentStrategy::kEquality,
                                                  ExtentStrategy::kGreedyInOrder, ExtentStrategy::kGreedyBySize,
                                                  ExtentStrategy::kAuto};
  return all;
}

}  // namespace glpool
