// FuseLayerNormFormula (passes.h): LayerNormalization written out with
// ReduceMean, Sub, Pow, Add, Sqrt and Div, as exporters for opsets before
// 17 (which has no LayerNormalization) write it: nine tasks, six
// intermediates and two reductions over the same rows become one task.
#include <algorithm>
#include <cmath>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

bool Plain(const Node& node, const char* op, size_t inputs) {
  return node.domain.empty() && node.op_type == op && node.inputs.size() == inputs && node.outputs.size() == 1 &&
         !HasFusedEpilogue(node);
}

// The first normalized axis when `mean` is a ReduceMean over trailing dims
// of its rank-`rank` input, keeping them; -1 otherwise.
int64_t TrailingMeanAxis(const Graph& graph, const Node& mean, size_t rank) {
  if (!mean.domain.empty() || mean.op_type != "ReduceMean" || mean.outputs.size() != 1 ||
      mean.GetInt("keepdims", 1) != 1) {
    return -1;
  }
  std::vector<int64_t> axes;
  if (mean.inputs.size() >= 2 && !mean.inputs[1].empty()) {  // opset 18: axes as an input
    const Tensor* t = graph.FindTensor(mean.inputs[1]);
    if (t == nullptr || !t->is_constant) return -1;
    axes = t->data.ToInt64s();
  } else if (mean.inputs.size() == 1) {
    axes = mean.GetInts("axes");
  } else {
    return -1;
  }
  if (axes.empty()) return -1;  // all axes (or none, opset 18's noop): not this pattern
  for (int64_t& a : axes) {
    if (a < 0) a += static_cast<int64_t>(rank);
    if (a < 0 || a >= static_cast<int64_t>(rank)) return -1;
  }
  std::sort(axes.begin(), axes.end());
  for (size_t k = 0; k < axes.size(); ++k) {
    if (axes[k] != static_cast<int64_t>(rank - axes.size() + k)) return -1;
  }
  return axes.front();
}

// Whether tensor `name` is fp32 of shape `shape`.
bool ShapeIs(const Graph& graph, const std::string& name, const Shape& shape) {
  const Tensor* t = graph.FindTensor(name);
  return t != nullptr && t->dtype == DataType::kFloat32 && t->shape == shape;
}

// LayerNormalization's scale or bias for constant `name`, which multiplies
// or adds to x: itself when it is one value or holds exactly the
// normalized dims (leading 1s aside); a new constant of the normalized dims
// when it broadcasts to them (1 on every other dim); "" otherwise.
std::string OverNormalizedDims(Graph& graph, const std::string& name, const Shape& x, int64_t axis) {
  const Tensor* t = ConstantFp32(graph, name);
  if (t == nullptr || t->shape.size() > x.size()) return "";
  const Shape dims(x.begin() + axis, x.end());
  auto strip = [](Shape s) {
    while (!s.empty() && s.front() == 1) s.erase(s.begin());
    return s;
  };
  if (ElementCount(t->shape) == 1 || strip(t->shape) == strip(dims)) return name;
  // Right-aligned against x: 1 before the axis, 1 or x's size from it.
  const size_t offset = x.size() - t->shape.size();
  for (size_t k = 0; k < t->shape.size(); ++k) {
    const int64_t want = x[offset + k];
    if (t->shape[k] == want) {
      if (static_cast<int64_t>(offset + k) < axis && want != 1) return "";
    } else if (t->shape[k] != 1) {
      return "";
    }
  }
  const std::vector<float> values = t->data.ToFloats();
  std::vector<float> expanded(static_cast<size_t>(ElementCount(dims)));
  for (size_t i = 0; i < expanded.size(); ++i) {
    // Index i of dims, as an index into t (its size-1 dims read index 0).
    size_t rest = i, from = 0, stride = 1;
    for (size_t d = dims.size(); d-- > 0;) {
      const size_t coordinate = rest % static_cast<size_t>(dims[d]);
      rest /= static_cast<size_t>(dims[d]);
      const size_t x_dim = static_cast<size_t>(axis) + d;
      if (x_dim >= offset) {
        const int64_t size = t->shape[x_dim - offset];
        if (size != 1) from += coordinate * stride;
        stride *= static_cast<size_t>(size);
      }
    }
    expanded[i] = values[from];
  }
  const std::string made = UniqueTensorName(graph, name + "/normalized_dims");
  AddConstantTensor(graph, made, TensorData::FromFloats(dims, expanded));
  return made;
}

}  // namespace

StatusOr<int> FuseLayerNormFormula(Graph& graph) {
  int fused = 0;
  std::map<std::string, int> readers = CountReaders(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    // mean = ReduceMean(x) over trailing dims, read by the Sub only.
    const Node& mean = graph.nodes[i];
    if (mean.op_type != "ReduceMean" || mean.inputs.empty()) continue;
    const std::string x = mean.inputs[0];
    const Tensor* xt = graph.FindTensor(x);
    if (xt == nullptr || xt->dtype != DataType::kFloat32 || xt->shape.empty()) continue;
    const Shape x_shape = xt->shape;  // xt moves when constants are added
    const int64_t axis = TrailingMeanAxis(graph, mean, x_shape.size());
    if (axis < 0) continue;
    // d = x - mean, read by the square and the Div.
    const long sub_at = OnlyReader(graph, readers, mean.outputs[0]);
    if (sub_at < 0) continue;
    const Node& sub = graph.nodes[static_cast<size_t>(sub_at)];
    if (!Plain(sub, "Sub", 2) || sub.inputs[0] != x || sub.inputs[1] != mean.outputs[0]) continue;
    const std::string d = sub.outputs[0];
    if (IsGraphOutput(graph, d)) continue;
    long square_at = -1, div_at = -1;
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
      const Node& r = graph.nodes[n];
      if (std::find(r.inputs.begin(), r.inputs.end(), d) == r.inputs.end()) continue;
      (r.op_type == "Div" ? div_at : square_at) = static_cast<long>(n);
    }
    if (square_at < 0 || div_at < 0) continue;
    // d * d, or Pow(d, 2).
    const Node& square = graph.nodes[static_cast<size_t>(square_at)];
    float two = 0;
    const bool squares = (Plain(square, "Pow", 2) && square.inputs[0] == d &&
                          ScalarFp32(graph, square.inputs[1], &two) && two == 2.0f) ||
                         (Plain(square, "Mul", 2) && square.inputs[0] == d && square.inputs[1] == d);
    // d's readers: the square (twice when it is d * d) and the Div, no other.
    if (!squares || readers.at(d) != (square.op_type == "Mul" ? 3 : 2)) continue;
    // variance = ReduceMean(square) over the same dims, + epsilon, sqrt.
    const long var_at = OnlyReader(graph, readers, square.outputs[0]);
    if (var_at < 0) continue;
    const Node& var = graph.nodes[static_cast<size_t>(var_at)];
    if (var.inputs[0] != square.outputs[0] || TrailingMeanAxis(graph, var, x_shape.size()) != axis) continue;
    const long eps_at = OnlyReader(graph, readers, var.outputs[0]);
    if (eps_at < 0) continue;
    const Node& eps_add = graph.nodes[static_cast<size_t>(eps_at)];
    float epsilon = 0;
    if (!Plain(eps_add, "Add", 2) || !ScalarFp32(graph, OtherInput(eps_add, var.outputs[0]), &epsilon) ||
        !(epsilon >= 0.0f)) {
      continue;
    }
    const long sqrt_at = OnlyReader(graph, readers, eps_add.outputs[0]);
    if (sqrt_at < 0) continue;
    const Node& root = graph.nodes[static_cast<size_t>(sqrt_at)];
    if (!Plain(root, "Sqrt", 1)) continue;
    // normalized = d / sqrt(...).
    const Node& div = graph.nodes[static_cast<size_t>(div_at)];
    if (!Plain(div, "Div", 2) || div.inputs[0] != d || div.inputs[1] != root.outputs[0] ||
        readers.at(root.outputs[0]) != 1) {
      continue;
    }
    if (!ShapeIs(graph, div.outputs[0], x_shape)) continue;
    std::set<size_t> drop = {i,
                             static_cast<size_t>(sub_at),
                             static_cast<size_t>(square_at),
                             static_cast<size_t>(var_at),
                             static_cast<size_t>(eps_at),
                             static_cast<size_t>(sqrt_at),
                             static_cast<size_t>(div_at)};
    // Then optionally * scale and + bias (constants over the normalized dims).
    std::string out = div.outputs[0];
    size_t last = static_cast<size_t>(div_at);
    // The `op` reading `out` alone, by a constant over the normalized dims:
    // it joins the pattern and that constant (or its expansion) comes back.
    auto absorb = [&](const char* op) -> std::string {
      const long at = OnlyReader(graph, readers, out);
      if (at < 0) return "";
      const Node& node = graph.nodes[static_cast<size_t>(at)];
      if (!Plain(node, op, 2) || !ShapeIs(graph, node.outputs[0], x_shape)) return "";
      const std::string fitted = OverNormalizedDims(graph, OtherInput(node, out), x_shape, axis);
      if (fitted.empty()) return "";
      out = node.outputs[0];
      last = static_cast<size_t>(at);
      drop.insert(last);
      return fitted;
    };
    std::string scale = absorb("Mul");
    const std::string bias = scale.empty() ? "" : absorb("Add");
    if (scale.empty()) {
      scale = UniqueTensorName(graph, mean.name + "/scale");
      AddConstantTensor(graph, scale, TensorData::FromFloats({1}, {1.0f}));
    }
    // The one node, where the last one was (every input is defined before it).
    Node fused_node;
    fused_node.name = graph.nodes[last].name;
    fused_node.op_type = "LayerNormalization";
    fused_node.inputs = {x, scale};
    if (!bias.empty()) fused_node.inputs.push_back(bias);
    fused_node.outputs = {out};
    fused_node.attributes["axis"] = axis;
    fused_node.attributes["epsilon"] = epsilon;
    std::vector<std::string> gone;
    for (size_t n : drop) {
      for (const std::string& o : graph.nodes[n].outputs) {
        if (o != out) gone.push_back(o);
      }
    }
    graph.nodes[last] = std::move(fused_node);
    drop.erase(last);
    for (const std::string& name : gone) graph.tensors.erase(name);
    EraseNodes(graph, drop);
    ++fused;
    readers = CountReaders(graph);
    i = static_cast<size_t>(-1);  // from the start again: indices moved
  }
  return fused;
}

}  // namespace glpool
