#include <algorithm>
#include <cstring>

#include "gpu_backend/graph/float16.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

bool IsVariadic(const std::string& op) {
  return op == "Concat" || op == "Sum" || op == "Max" || op == "Min" || op == "Mean";
}

// The shape a partial node over `inputs` produces: the concatenation along
// `axis` for Concat, the broadcast of all for the elementwise ops.
StatusOr<Shape> PartialShape(const Graph& graph, const Node& node, const std::vector<std::string>& inputs) {
  Shape shape = graph.FindTensor(inputs[0])->shape;
  if (node.op_type == "Concat") {
    const int64_t rank = static_cast<int64_t>(shape.size());
    int64_t axis = node.GetInt("axis", 0);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return InvalidModelError(node.name + ": Concat axis out of range");
    for (size_t i = 1; i < inputs.size(); ++i) {
      const Shape& other = graph.FindTensor(inputs[i])->shape;
      if (other.size() != shape.size()) {
        return InvalidModelError(node.name + ": Concat input '" + inputs[i] + "' has rank " +
                                 std::to_string(other.size()) + ", input '" + inputs[0] + "' rank " +
                                 std::to_string(shape.size()));
      }
      shape[axis] += other[axis];
    }
    return shape;
  }
  for (size_t i = 1; i < inputs.size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(shape, BroadcastShapes(shape, graph.FindTensor(inputs[i])->shape));
  }
  return shape;
}

// Rewrites nodes[index] (more than `width` inputs) into a tree; returns the
// nodes to insert before it, in order.
StatusOr<std::vector<Node>> Split(Graph& graph, Node& node, size_t width) {
  const DataType dtype = graph.FindTensor(node.outputs[0])->dtype;
  // Concat: empty inputs contribute nothing; dropping them first keeps every
  // partial non-empty (the kernel refuses an all-empty Concat).
  std::vector<std::string> inputs;
  for (const std::string& name : node.inputs) {
    const Tensor* tensor = graph.FindTensor(name);
    if (node.op_type == "Concat" && tensor && ElementCount(tensor->shape) == 0) continue;
    inputs.push_back(name);
  }
  // A Mean becomes a Sum tree and one scaling at the end: a mean of partial
  // means would weigh unequal groups wrongly.
  const std::string partial_op = node.op_type == "Mean" ? "Sum" : node.op_type;
  const size_t count = node.inputs.size();
  std::vector<Node> added;
  while (inputs.size() > width) {
    std::vector<std::string> level;
    for (size_t begin = 0; begin < inputs.size(); begin += width) {
      const std::vector<std::string> group(inputs.begin() + static_cast<std::ptrdiff_t>(begin),
                                           inputs.begin() + static_cast<std::ptrdiff_t>(std::min(begin + width, inputs.size())));
      if (group.size() == 1) {
        level.push_back(group[0]);
        continue;
      }
      Node partial;
      partial.name = UniqueTensorName(graph, node.name + "/part" + std::to_string(added.size()));
      partial.op_type = partial_op;
      partial.inputs = group;
      if (node.op_type == "Concat") partial.attributes["axis"] = node.attributes.count("axis") ? node.attributes.at("axis") : AttributeValue(int64_t{0});
      GLPOOL_ASSIGN_OR_RETURN(Shape shape, PartialShape(graph, node, group));
      Tensor tensor;
      tensor.name = UniqueTensorName(graph, partial.name);
      tensor.dtype = dtype;
      tensor.shape = shape;
      partial.outputs = {tensor.name};
      graph.tensors.emplace(tensor.name, tensor);
      level.push_back(tensor.name);
      added.push_back(std::move(partial));
    }
    inputs = std::move(level);
  }
  node.inputs = inputs;
  if (node.op_type == "Mean") {
    // Sum the partial sums into a new tensor, then scale it into the output.
    Node sum = node;
    sum.op_type = "Sum";
    sum.name = node.name + "/sum";
    Tensor total = *graph.FindTensor(node.outputs[0]);
    total.name = UniqueTensorName(graph, sum.name);
    total.is_constant = false;
    sum.outputs = {total.name};
    graph.tensors.emplace(total.name, total);
    // The scale has the output's dtype: Mul's operands must agree (a
    // float16 model stays float16 for the CPU reference).
    const std::string scale = UniqueTensorName(graph, node.name + "/inverse_count");
    TensorData inverse = TensorData::FromFloats({}, {1.0f / static_cast<float>(count)});
    if (dtype == DataType::kFloat16) {
      const uint16_t half = FloatToHalf(1.0f / static_cast<float>(count));
      inverse.dtype = DataType::kFloat16;
      inverse.bytes.resize(sizeof(half));
      std::memcpy(inverse.bytes.data(), &half, sizeof(half));
    }
    AddConstantTensor(graph, scale, std::move(inverse));
    node.op_type = "Mul";
    node.inputs = {total.name, scale};
    added.push_back(std::move(sum));
  }
  return added;
}

}  // namespace

StatusOr<int> SplitWideVariadics(Graph& graph, size_t width) {
  if (width < 2) return InvalidArgumentError("variadic split width must be at least 2");
  int rewritten = 0;
  std::vector<Node> nodes;
  nodes.reserve(graph.nodes.size());
  for (Node& node : graph.nodes) {
    bool wide = IsVariadic(node.op_type) && node.inputs.size() > width && node.outputs.size() == 1 &&
                graph.FindTensor(node.outputs[0]) != nullptr;
    for (const std::string& name : node.inputs) wide = wide && graph.FindTensor(name) != nullptr;
    // Concat, Sum, Max and Min regroup exactly in any dtype (integer sums
    // wrap the same in any order); Mean's scaling needs a float32 or
    // float16 output (other dtypes stay whole: the kernel refuses them and
    // the node takes the CPU fallback).
    if (wide && node.op_type == "Mean") {
      const DataType dtype = graph.FindTensor(node.outputs[0])->dtype;
      wide = dtype == DataType::kFloat32 || dtype == DataType::kFloat16;
    }
    if (!wide) {
      nodes.push_back(std::move(node));
      continue;
    }
    GLPOOL_ASSIGN_OR_RETURN(std::vector<Node> added, Split(graph, node, width));
    for (Node& partial : added) nodes.push_back(std::move(partial));
    nodes.push_back(std::move(node));
    ++rewritten;
  }
  graph.nodes = std::move(nodes);
  return rewritten;
}

}  // namespace glpool
