// Shape computations of the data-movement ops, shared by the shape rules
// (output shapes) and the constant folder (output values), so both read the
// ONNX semantics from one place.
#pragma once

#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/import/node_view.h"

namespace glpool {

// Reshape's target: 0 copies the input dim (unless allowzero), one -1 is inferred.
StatusOr<Shape> ReshapeTarget(const Shape& in, const std::vector<int64_t>& spec, bool allowzero);
StatusOr<Shape> FlattenShape(const Shape& in, int64_t axis);
// Empty axes squeeze every 1.
StatusOr<Shape> SqueezeShape(const Shape& in, const std::vector<int64_t>& axes);
StatusOr<Shape> UnsqueezeShape(const Shape& in, const std::vector<int64_t>& axes);
StatusOr<Shape> ConcatShape(const std::vector<Shape>& shapes, int64_t axis);

// A resolved Slice: per dimension of the input, the first index, the step
// and the number of elements taken.
struct SliceRange {
  std::vector<int64_t> start, step, count;
};
StatusOr<SliceRange> ComputeSlice(const Shape& in, const std::vector<int64_t>& starts,
                                  const std::vector<int64_t>& ends, const std::vector<int64_t>& axes,
                                  const std::vector<int64_t>& steps);

// The opset-dependent operands of a node, wherever its opset keeps them.
StatusOr<SliceRange> ReadSlice(const NodeView& v);
// Squeeze/Unsqueeze axes: attribute before opset 13, input 1 from 13.
StatusOr<std::vector<int64_t>> ReadSqueezeAxes(const NodeView& v);
// Reduce* axes: attribute, or input 1 for ReduceSum from 13 and the other
// reductions from 18 (empty = none given).
StatusOr<std::vector<int64_t>> ReadReduceAxes(const NodeView& v, bool* from_input);
// The opset from which a reduction reads its axes from input 1.
int64_t ReduceAxesInputSince(const std::string& op_type);
// Transpose permutation (default: reversed dims).
StatusOr<std::vector<int64_t>> ReadPerm(const NodeView& v);
// Pad's pads for every dim (begins, then ends), wherever the opset keeps
// them; from 18 the axes input names the dims they are for.
StatusOr<std::vector<int64_t>> ReadPads(const NodeView& v);
// Range's element count, from its constant scalar inputs.
StatusOr<int64_t> RangeCount(const NodeView& v);
// Split sizes for `dim` into the node's outputs (opset 18's num_outputs:
// parts of ceil(dim / n), the last one smaller).
StatusOr<std::vector<int64_t>> SplitByNumOutputs(const Node& node, int64_t dim, bool has_split_input);
StatusOr<std::vector<int64_t>> ReadSplit(const NodeView& v, int64_t dim);

}  // namespace glpool
