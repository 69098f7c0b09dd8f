// Shape rules for ops that move or generate data: reshapes, transposes,
// concatenation and splitting, slicing and gathering, shape queries,
// matrix products.
#include <algorithm>
#include <cmath>

#include "gpu_backend/import/shape_ops.h"
#include "gpu_backend/import/shape_rules_table.h"
#include "gpu_backend/import/tensor_values.h"

namespace glpool {
namespace {

using Types = StatusOr<std::vector<TensorType>>;

Types Reshape(const NodeView& v) {
  std::vector<int64_t> spec;
  if (v.opset() < 5) {
    spec = v.node().GetInts("shape");
  } else {
    GLPOOL_ASSIGN_OR_RETURN(spec, v.ConstInts(1, "shape"));
  }
  GLPOOL_ASSIGN_OR_RETURN(Shape out, ReshapeTarget(v.shape(0), spec, v.node().GetInt("allowzero", 0) != 0));
  return One(v.dtype(0), out);
}

Types Flatten(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(Shape out, FlattenShape(v.shape(0), v.node().GetInt("axis", 1)));
  return One(v.dtype(0), out);
}

Types Squeeze(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ReadSqueezeAxes(v));
  GLPOOL_ASSIGN_OR_RETURN(Shape out, SqueezeShape(v.shape(0), axes));
  return One(v.dtype(0), out);
}

Types Unsqueeze(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ReadSqueezeAxes(v));
  GLPOOL_ASSIGN_OR_RETURN(Shape out, UnsqueezeShape(v.shape(0), axes));
  return One(v.dtype(0), out);
}

Types Transpose(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> perm, ReadPerm(v));
  Shape out;
  for (int64_t p : perm) out.push_back(v.shape(0)[static_cast<size_t>(p)]);
  return One(v.dtype(0), out);
}

Types Concat(const NodeView& v) {
  std::vector<Shape> shapes;
  for (size_t i = 0; i < v.input_count(); ++i) {
    if (v.has(i)) shapes.push_back(v.shape(i));
  }
  GLPOOL_ASSIGN_OR_RETURN(Shape out, ConcatShape(shapes, v.node().GetInt("axis", 0)));
  return One(v.dtype(0), out);
}

Types Split(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(v.node().GetInt("axis", 0), v.rank(0)));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> split, ReadSplit(v, v.shape(0)[static_cast<size_t>(axis)]));
  std::vector<TensorType> types;
  for (int64_t s : split) {
    Shape out = v.shape(0);
    out[static_cast<size_t>(axis)] = s;
    types.push_back({v.dtype(0), out});
  }
  return types;
}

Types Slice(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(SliceRange range, ReadSlice(v));
  return One(v.dtype(0), range.count);
}

Types Gather(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(v.node().GetInt("axis", 0), v.rank(0)));
  const Shape& data = v.shape(0);
  Shape out(data.begin(), data.begin() + axis);
  out.insert(out.end(), v.shape(1).begin(), v.shape(1).end());
  out.insert(out.end(), data.begin() + axis + 1, data.end());
  return One(v.dtype(0), out);
}

Types GatherElements(const NodeView& v) { return One(v.dtype(0), v.shape(1)); }

Types Expand(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> shape, v.ConstInts(1, "shape"));
  GLPOOL_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(v.shape(0), shape));
  return One(v.dtype(0), out);
}

Types Tile(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> repeats, v.ConstInts(1, "repeats"));
  if (static_cast<int64_t>(repeats.size()) != v.rank(0)) return InvalidModelError("Tile repeats have the wrong length");
  Shape out = v.shape(0);
  for (size_t i = 0; i < out.size(); ++i) {
    if (repeats[i] < 0) return InvalidModelError("Tile repeat is negative");
    // Bounded before the product: a repeat near 2^63 must not overflow it.
    if (repeats[i] > 0 && out[i] > kMaxShapeElements / repeats[i]) {
      return UnsupportedError("Tile of " + ShapeToString(v.shape(0)) + " by " + std::to_string(repeats[i]) +
                              " on axis " + std::to_string(i) + " exceeds " + std::to_string(kMaxShapeElements) +
                              " elements");
    }
    out[i] *= repeats[i];
  }
  return One(v.dtype(0), out);
}

Types ShapeOp(const NodeView& v) {
  const int64_t rank = v.rank(0);
  int64_t start = v.node().GetInt("start", 0);
  int64_t end = v.node().GetInt("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, 0, rank);
  return One(DataType::kInt64, {std::max<int64_t>(0, end - start)});
}

Types Size(const NodeView&) { return One(DataType::kInt64, {}); }

Types ConstantOfShape(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> shape, v.ConstInts(0, "input"));
  DataType dtype = DataType::kFloat32;
  auto it = v.node().attributes.find("value");
  if (it != v.node().attributes.end()) {
    if (const TensorData* value = std::get_if<TensorData>(&it->second)) dtype = value->dtype;
  }
  for (int64_t d : shape) {
    if (d < 0) return InvalidModelError("ConstantOfShape with a negative dimension");
  }
  return One(dtype, shape);
}

Types Range(const NodeView& v) {
  GLPOOL_ASSIGN_OR_RETURN(int64_t count, RangeCount(v));
  return One(v.dtype(0), {count});
}

Types Gemm(const NodeView& v) {
  if (v.rank(0) != 2 || v.rank(1) != 2) return InvalidModelError("Gemm needs 2-D A and B");
  const bool ta = v.node().GetInt("transA", 0) != 0;
  const bool tb = v.node().GetInt("transB", 0) != 0;
  const int64_t m = v.shape(0)[ta ? 1 : 0], k = v.shape(0)[ta ? 0 : 1];
  const int64_t kb = v.shape(1)[tb ? 1 : 0], n = v.shape(1)[tb ? 0 : 1];
  if (k != kb) {
    return InvalidModelError("Gemm inner dimensions differ: " + ShapeToString(v.shape(0)) + " and " +
                             ShapeToString(v.shape(1)));
  }
  return One(v.dtype(0), {m, n});
}

Types MatMul(const NodeView& v) {
  Shape a = v.shape(0), b = v.shape(1);
  if (a.empty() || b.empty()) return InvalidModelError("MatMul of a scalar");
  const bool a_vector = a.size() == 1, b_vector = b.size() == 1;
  if (a_vector) a.insert(a.begin(), 1);
  if (b_vector) b.push_back(1);
  if (a.back() != b[b.size() - 2]) {
    return InvalidModelError("MatMul inner dimensions differ: " + ShapeToString(v.shape(0)) + " and " +
                             ShapeToString(v.shape(1)));
  }
  GLPOOL_ASSIGN_OR_RETURN(Shape batch, BroadcastShapes(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2)));
  Shape out = batch;
  if (!a_vector) out.push_back(a[a.size() - 2]);
  if (!b_vector) out.push_back(b.back());
  return One(v.dtype(0), out);
}

}  // namespace

void AddLayoutRules(ShapeRuleTable* t) {
  (*t)["Reshape"] = Reshape;
  (*t)["Flatten"] = Flatten;
  (*t)["Squeeze"] = Squeeze;
  (*t)["Unsqueeze"] = Unsqueeze;
  (*t)["Transpose"] = Transpose;
  (*t)["Concat"] = Concat;
  (*t)["Split"] = Split;
  (*t)["Slice"] = Slice;
  (*t)["Gather"] = Gather;
  (*t)["GatherElements"] = GatherElements;
  (*t)["Expand"] = Expand;
  (*t)["Tile"] = Tile;
  (*t)["Shape"] = ShapeOp;
  (*t)["Size"] = Size;
  (*t)["ConstantOfShape"] = ConstantOfShape;
  (*t)["Range"] = Range;
  (*t)["Gemm"] = Gemm;
  (*t)["MatMul"] = MatMul;
}

}  // namespace glpool
