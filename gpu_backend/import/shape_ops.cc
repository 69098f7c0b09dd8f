#include "gpu_backend/import/shape_ops.h"

#include <algorithm>
#include <cmath>

#include "gpu_backend/import/tensor_values.h"

namespace glpool {
namespace {

// Products of dims taken from the model: a target like 2^31 x 2^31 x 2^31
// must be an error, not a signed overflow that happens to wrap.
bool MultiplyFits(int64_t a, int64_t b, int64_t* product) { return !__builtin_mul_overflow(a, b, product); }

}  // namespace

StatusOr<Shape> ReshapeTarget(const Shape& in, const std::vector<int64_t>& spec, bool allowzero) {
  Shape out(spec.size());
  int64_t infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] == -1) {
      if (infer >= 0) return InvalidModelError("Reshape shape has more than one -1");
      infer = static_cast<int64_t>(i);
      continue;
    }
    if (spec[i] < -1) return InvalidModelError("Reshape shape has a negative dimension");
    if (spec[i] == 0 && !allowzero) {
      if (i >= in.size()) return InvalidModelError("Reshape shape copies dimension " + std::to_string(i) + " the input lacks");
      out[i] = in[i];
    } else {
      out[i] = spec[i];
    }
    if (!MultiplyFits(known, out[i], &known)) {
      return InvalidModelError("Reshape shape " + ShapeToString(spec) + " has more elements than fit in 64 bits");
    }
  }
  const int64_t total = ElementCount(in);
  if (infer >= 0) {
    if (known == 0 || total % known != 0) {
      return InvalidModelError("cannot reshape " + ShapeToString(in) + " with -1 into " + ShapeToString(spec));
    }
    out[static_cast<size_t>(infer)] = total / known;
  } else if (known != total) {
    return InvalidModelError("cannot reshape " + ShapeToString(in) + " (" + std::to_string(total) +
                             " elements) into " + ShapeToString(out));
  }
  return out;
}

StatusOr<Shape> FlattenShape(const Shape& in, int64_t axis) {
  const int64_t rank = static_cast<int64_t>(in.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) return InvalidModelError("Flatten axis out of range");
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t& part = i < axis ? outer : inner;
    if (!MultiplyFits(part, in[static_cast<size_t>(i)], &part)) {
      return InvalidModelError("Flatten of " + ShapeToString(in) + ": more elements than fit in 64 bits");
    }
  }
  return Shape{outer, inner};
}

StatusOr<Shape> SqueezeShape(const Shape& in, const std::vector<int64_t>& axes) {
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes.empty()) {
    for (size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;
  }
  for (int64_t axis : axes) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axis, rank, "Squeeze axis"));
    if (in[static_cast<size_t>(a)] != 1) {
      return InvalidModelError("Squeeze axis " + std::to_string(axis) + " of " + ShapeToString(in) + " is not 1");
    }
    drop[static_cast<size_t>(a)] = true;
  }
  Shape out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!drop[i]) out.push_back(in[i]);
  }
  return out;
}

StatusOr<Shape> UnsqueezeShape(const Shape& in, const std::vector<int64_t>& axes) {
  const int64_t rank = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> inserted(static_cast<size_t>(rank), false);
  for (int64_t axis : axes) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axis, rank, "Unsqueeze axis"));
    if (inserted[static_cast<size_t>(a)]) return InvalidModelError("Unsqueeze axes repeat");
    inserted[static_cast<size_t>(a)] = true;
  }
  Shape out;
  size_t next = 0;
  for (int64_t i = 0; i < rank; ++i) out.push_back(inserted[static_cast<size_t>(i)] ? 1 : in[next++]);
  return out;
}

StatusOr<Shape> ConcatShape(const std::vector<Shape>& shapes, int64_t axis) {
  if (shapes.empty()) return InvalidModelError("Concat without inputs");
  const int64_t rank = static_cast<int64_t>(shapes[0].size());
  GLPOOL_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axis, rank, "Concat axis"));
  Shape out = shapes[0];
  out[static_cast<size_t>(a)] = 0;
  for (const Shape& s : shapes) {
    if (static_cast<int64_t>(s.size()) != rank) return InvalidModelError("Concat inputs differ in rank");
    for (int64_t i = 0; i < rank; ++i) {
      const size_t k = static_cast<size_t>(i);
      if (i != a && s[k] != out[k]) {
        return InvalidModelError("Concat inputs " + ShapeToString(shapes[0]) + " and " + ShapeToString(s) +
                                 " differ outside axis " + std::to_string(a));
      }
    }
    int64_t& along = out[static_cast<size_t>(a)];
    if (__builtin_add_overflow(along, s[static_cast<size_t>(a)], &along) || along > kMaxShapeElements) {
      return UnsupportedError("Concat along axis " + std::to_string(a) + " exceeds " +
                              std::to_string(kMaxShapeElements) + " elements");
    }
  }
  return out;
}

StatusOr<SliceRange> ComputeSlice(const Shape& in, const std::vector<int64_t>& starts,
                                  const std::vector<int64_t>& ends, const std::vector<int64_t>& axes_in,
                                  const std::vector<int64_t>& steps_in) {
  const int64_t rank = static_cast<int64_t>(in.size());
  if (starts.size() != ends.size()) return InvalidModelError("Slice starts and ends differ in length");
  std::vector<int64_t> axes = axes_in;
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  std::vector<int64_t> steps = steps_in.empty() ? std::vector<int64_t>(starts.size(), 1) : steps_in;
  if (axes.size() != starts.size() || steps.size() != starts.size()) {
    return InvalidModelError("Slice starts, ends, axes and steps differ in length");
  }
  SliceRange range;
  range.start.assign(in.size(), 0);
  range.step.assign(in.size(), 1);
  range.count = in;
  for (size_t i = 0; i < axes.size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(axes[i], rank, "Slice axis"));
    const int64_t dim = in[static_cast<size_t>(axis)];
    if (steps[i] == 0) return InvalidModelError("Slice step is 0");
    // A step longer than the axis selects at most the first element, as a
    // step of exactly the axis length does: that keeps every sum below (and
    // the step a shader receives) small, whatever the model says (-2^63).
    const int64_t longest = std::max<int64_t>(dim, 1);
    const int64_t step = steps[i] > longest ? longest : steps[i] < -longest ? -longest : steps[i];
    // Clamp like the ONNX spec: negative values count from the end, then
    // into [0, dim] for positive steps and [-1, dim-1] for negative ones.
    auto clamp = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0) v += dim;
      return std::min(std::max(v, lo), hi);
    };
    int64_t start, end;
    if (step > 0) {
      start = clamp(starts[i], 0, dim);
      end = clamp(ends[i], 0, dim);
    } else {
      start = clamp(starts[i], 0, dim - 1);
      end = clamp(ends[i], -1, dim - 1);
    }
    int64_t count = 0;
    if (step > 0 && end > start) count = (end - start + step - 1) / step;
    if (step < 0 && start > end) count = (start - end + (-step) - 1) / (-step);
    const size_t k = static_cast<size_t>(axis);
    range.start[k] = start;
    range.step[k] = step;
    range.count[k] = count;
  }
  return range;
}

StatusOr<SliceRange> ReadSlice(const NodeView& v) {
  const Node& n = v.node();
  if (v.opset() < 10) {
    return ComputeSlice(v.shape(0), n.GetInts("starts"), n.GetInts("ends"), n.GetInts("axes"), {});
  }
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> starts, v.ConstInts(1, "starts"));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> ends, v.ConstInts(2, "ends"));
  std::vector<int64_t> axes, steps;
  if (v.has(3)) {
    GLPOOL_ASSIGN_OR_RETURN(axes, v.ConstInts(3, "axes"));
  }
  if (v.has(4)) {
    GLPOOL_ASSIGN_OR_RETURN(steps, v.ConstInts(4, "steps"));
  }
  return ComputeSlice(v.shape(0), starts, ends, axes, steps);
}

StatusOr<std::vector<int64_t>> ReadSqueezeAxes(const NodeView& v) {
  if (v.opset() < 13) return v.node().GetInts("axes");
  if (!v.has(1)) return std::vector<int64_t>{};
  return v.ConstInts(1, "axes");
}

StatusOr<std::vector<int64_t>> ReadReduceAxes(const NodeView& v, bool* from_input) {
  *from_input = false;
  if (v.opset() >= ReduceAxesInputSince(v.node().op_type)) {
    *from_input = true;
    if (!v.has(1)) return std::vector<int64_t>{};
    return v.ConstInts(1, "axes");
  }
  return v.node().GetInts("axes");
}

int64_t ReduceAxesInputSince(const std::string& op_type) { return op_type == "ReduceSum" ? 13 : 18; }

StatusOr<std::vector<int64_t>> ReadPerm(const NodeView& v) {
  const int64_t rank = v.rank(0);
  std::vector<int64_t> perm = v.node().GetInts("perm");
  if (perm.empty()) {
    for (int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
  }
  if (static_cast<int64_t>(perm.size()) != rank) return InvalidModelError("Transpose perm has the wrong length");
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t& p : perm) {
    GLPOOL_ASSIGN_OR_RETURN(p, NormalizeAxis(p, rank, "Transpose perm entry"));
    if (seen[static_cast<size_t>(p)]) return InvalidModelError("Transpose perm repeats an axis");
    seen[static_cast<size_t>(p)] = true;
  }
  return perm;
}

StatusOr<std::vector<int64_t>> SplitByNumOutputs(const Node& node, int64_t dim, bool has_split_input) {
  const int64_t parts = static_cast<int64_t>(node.outputs.size());
  const int64_t n = node.GetInt("num_outputs", 0);
  if (has_split_input) return InvalidModelError("Split gives both the split input and num_outputs");
  if (n != parts) {
    return InvalidModelError("Split num_outputs " + std::to_string(n) + " differs from its " + std::to_string(parts) +
                             " outputs");
  }
  // Equal parts of ceil(dim / n), the last one what remains (ONNX 18).
  const int64_t chunk = (dim + n - 1) / n;
  if (chunk * (n - 1) > dim) {
    return InvalidModelError("Split cannot cut " + std::to_string(dim) + " into " + std::to_string(n) +
                             " parts of " + std::to_string(chunk) + " with a smaller last one");
  }
  std::vector<int64_t> split(static_cast<size_t>(n), chunk);
  split.back() = dim - chunk * (n - 1);
  return split;
}

StatusOr<std::vector<int64_t>> ReadSplit(const NodeView& v, int64_t dim) {
  std::vector<int64_t> split;
  if (v.opset() < 13) {
    split = v.node().GetInts("split");
  } else if (v.has(1)) {
    GLPOOL_ASSIGN_OR_RETURN(split, v.ConstInts(1, "split"));
  }
  const int64_t parts = static_cast<int64_t>(v.node().outputs.size());
  if (v.opset() >= 18 && v.node().HasAttribute("num_outputs")) {
    GLPOOL_ASSIGN_OR_RETURN(split, SplitByNumOutputs(v.node(), dim, v.has(1)));
  } else if (split.empty()) {
    if (parts == 0 || dim % parts != 0) {
      return InvalidModelError("Split cannot divide " + std::to_string(dim) + " into " + std::to_string(parts) +
                               " equal parts");
    }
    split.assign(static_cast<size_t>(parts), dim / parts);
  }
  // Each size within [0, dim] before the sum, so a hostile size cannot
  // overflow it.
  int64_t total = 0;
  for (int64_t s : split) {
    if (s < 0 || s > dim) {
      return InvalidModelError("Split size " + std::to_string(s) + " lies outside the dimension's 0.." +
                               std::to_string(dim));
    }
    total += s;
    if (total > dim) break;
  }
  if (static_cast<int64_t>(split.size()) != parts || total != dim) {
    return InvalidModelError("Split sizes do not match the outputs or the dimension");
  }
  return split;
}

StatusOr<std::vector<int64_t>> ReadPads(const NodeView& v) {
  const Node& n = v.node();
  const int64_t rank = v.rank(0);
  std::vector<int64_t> given;
  if (v.opset() < 11) {
    given = n.GetInts(v.opset() < 2 ? "paddings" : "pads");
  } else {
    GLPOOL_ASSIGN_OR_RETURN(given, v.ConstInts(1, "pads"));
  }
  std::vector<int64_t> axes;
  if (v.opset() >= 18 && v.has(3)) {
    GLPOOL_ASSIGN_OR_RETURN(axes, v.ConstInts(3, "axes"));
  } else {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  if (given.size() != 2 * axes.size()) {
    return InvalidModelError("Pad pads hold " + std::to_string(given.size()) + " values for " +
                             std::to_string(axes.size()) + " padded axes (2 per axis)");
  }
  std::vector<int64_t> pads(static_cast<size_t>(2 * rank), 0);
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(axes[i], rank, "Pad axis"));
    if (seen[static_cast<size_t>(axis)]) return InvalidModelError("Pad axes repeat axis " + std::to_string(axis));
    seen[static_cast<size_t>(axis)] = true;
    pads[static_cast<size_t>(axis)] = given[i];
    pads[static_cast<size_t>(axis + rank)] = given[i + axes.size()];
  }
  return pads;
}

StatusOr<int64_t> RangeCount(const NodeView& v) {
  for (size_t i = 0; i < 3; ++i) {
    if (!v.is_constant(i)) return UnsupportedError("Range input " + std::to_string(i) + " " + kRunTimeOperand);
    if (v.in(i).data.element_count() != 1) return InvalidModelError("Range inputs must be scalars");
  }
  const double start = ToDoubles(v.in(0).data)[0];
  const double limit = ToDoubles(v.in(1).data)[0];
  const double delta = ToDoubles(v.in(2).data)[0];
  if (delta == 0) return InvalidModelError("Range delta is 0");
  const double count = std::ceil((limit - start) / delta);
  if (count > 1e12) return InvalidModelError("Range is too long");
  return count > 0 ? static_cast<int64_t>(count) : 0;
}

}  // namespace glpool
