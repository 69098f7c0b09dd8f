// Evaluates nodes whose inputs are all known at import time, so shape
// arithmetic (Shape -> Gather -> Concat -> Reshape and friends) becomes
// constants and the shapes that depend on it become static.
//
// Foldable: Shape and Size (need only the input's shape), and with constant
// inputs Identity, Dropout, Cast, Gather, Slice, Concat, Split, Squeeze,
// Unsqueeze, Reshape, Flatten, Transpose, Expand, Tile, ConstantOfShape,
// Range, Add, Sub, Mul, Div, Mod, Pow, Min, Max, Sum, Neg, Abs, Floor, Ceil,
// Sqrt, Reciprocal, Relu, Equal, Less, Greater, LessOrEqual, GreaterOrEqual,
// Not, And, Or, Where. Integer arithmetic is exact int64; floats go through
// double. Results above kMaxFoldElements are left to the executor.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// 4M elements: larger folds (index by index, in double) took seconds — a
// fuzzed Pow over 6.8M elements ran past 10 s under the sanitizers — while
// the GPU computes them in one task.
inline constexpr int64_t kMaxFoldElements = int64_t{1} << 22;

// Whether import folds `op_type` when its inputs are known.
bool IsFoldableOp(const std::string& op_type);

// Whether `node` can be folded now: its op is foldable and the inputs it
// needs are known (constants, or just resolved shapes for Shape/Size).
bool CanFoldNode(const Graph& graph, const Node& node);

// The values of the node's outputs; nullopt when folding was declined
// (too large, or an op form it does not evaluate); an error when the node
// is invalid (bad indices, a division by zero...).
StatusOr<std::optional<std::vector<TensorData>>> FoldNode(const Graph& graph, const Node& node);

}  // namespace glpool
