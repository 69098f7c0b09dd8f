// Shared objects with texture extents (2D: w x h, 3D: w x h x d).
//
// A texture's extent is fixed at creation, and a tensor fits an object only
// if the object covers it in every dimension; the cost of a plan is the sum
// of the objects' texel counts (times bytes per texel, which the caller
// knows). Strategies:
//  - NAIVE: one object per tensor, exactly its extent.
//  - EQUALITY: reuse a released object of exactly the same extent, else a
//    new one (ailia's "reuse interstage").
//  - GREEDY_IN_ORDER: tensors by first task; among released objects that
//    cover the tensor in every dimension, take the one wasting the fewest
//    texels; else a new object of the tensor's extent.
//  - GREEDY_BY_SIZE: tensors by decreasing texel count; objects may grow in
//    each dimension: among objects whose tensors are not alive at the same
//    time, take the one whose texel count grows least (ties: the smaller
//    object); open a new object when growing would cost more than the
//    tensor's own texels.
//  - AUTO: all of the above; keeps the smallest total.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "planner/assignment.h"
#include "planner/usage_record.h"

namespace glpool {

enum class ExtentStrategy { kNaive, kEquality, kGreedyInOrder, kGreedyBySize, kAuto };

template <typename Extent>
struct ExtentsPlan {
  ObjectsAssignment<Extent> assignment;
  ExtentStrategy chosen = ExtentStrategy::kNaive;  // the winner, for kAuto
};

StatusOr<ExtentsPlan<Extent2D>> PlanExtents(const std::vector<Extent2DRecord>& records, ExtentStrategy strategy);
StatusOr<ExtentsPlan<Extent3D>> PlanExtents(const std::vector<Extent3DRecord>& records, ExtentStrategy strategy);

// Sum over objects of their texel counts.
uint64_t TotalTexels(const ObjectsAssignment<Extent2D>& assignment);
uint64_t TotalTexels(const ObjectsAssignment<Extent3D>& assignment);

const char* ExtentStrategyName(ExtentStrategy strategy);  // "naive", ..., "auto"
StatusOr<ExtentStrategy> ParseExtentStrategy(const std::string& name);
const std::vector<ExtentStrategy>& AllExtentStrategies();

}  // namespace glpool
