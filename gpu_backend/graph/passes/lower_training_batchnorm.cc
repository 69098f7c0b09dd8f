// Training-mode BatchNormalization as ops the GPU already runs (passes.h
// says which): the batch statistics are per-channel means, which the reduce
// kernel computes, so training mode needs no kernel of its own.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/node_builder.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

bool IsFloat32(const Graph& graph, const std::string& name) {
  const Tensor* tensor = graph.FindTensor(name);
  return tensor != nullptr && tensor->dtype == DataType::kFloat32;
}

bool Used(const std::map<std::string, int>& readers, const std::string& name) {
  auto it = readers.find(name);
  return !name.empty() && it != readers.end() && it->second > 0;
}

// The nodes replacing training-mode `bn`, or none when it does not qualify.
std::vector<Node> Lower(Graph& graph, const Node& bn, const std::map<std::string, int>& readers,
                        std::set<std::string>& node_names) {
  if (bn.inputs.size() != 5 || bn.outputs.empty() || bn.outputs.size() > 3 || bn.outputs[0].empty()) return {};
  for (const std::string& name : bn.inputs) {
    if (name.empty() || !IsFloat32(graph, name)) return {};
  }
  for (const std::string& name : bn.outputs) {
    if (!name.empty() && !IsFloat32(graph, name)) return {};
  }
  const Shape x_shape = graph.FindTensor(bn.inputs[0])->shape;
  if (x_shape.size() < 2) return {};
  const int64_t channels = x_shape[1];
  for (size_t i = 1; i < 5; ++i) {
    if (graph.FindTensor(bn.inputs[i])->shape != Shape{channels}) return {};
  }
  const float momentum = bn.GetFloat("momentum", 0.9f);
  const std::string& x = bn.inputs[0];

  // Statistics over every dim but the channels, kept as [1, C, 1...] so
  // they broadcast against X, then viewed as [C] (the same PHWC4 layout:
  // MarkFreeReshapes makes those views free).
  std::vector<int64_t> axes = {0};
  Shape kept = {1, channels};
  for (size_t d = 2; d < x_shape.size(); ++d) {
    axes.push_back(static_cast<int64_t>(d));
    kept.push_back(1);
  }
  NodeBuilder l(graph, bn.name, node_names);
  const std::string axes_input =
      graph.opset >= 18 ? l.Constant("axes", TensorData::FromInt64s({static_cast<int64_t>(axes.size())}, axes)) : "";
  auto reduce_mean = [&](const std::string& input, const std::string& output) {
    Node& node = l.Add("ReduceMean", {input}, output);
    node.attributes["keepdims"] = int64_t{1};
    if (axes_input.empty()) {
      node.attributes["axes"] = axes;
    } else {
      node.inputs.push_back(axes_input);
    }
  };
  const std::string channel_shape = l.Constant("channel_shape", TensorData::FromInt64s({1}, {channels}));

  const std::string mean_kept = l.NewTensor("batch_mean_kept", kept);
  reduce_mean(x, mean_kept);
  const std::string centered = l.NewTensor("centered", x_shape);
  l.Add("Sub", {x, mean_kept}, centered);
  const std::string squared = l.NewTensor("squared", x_shape);
  l.Add("Mul", {centered, centered}, squared);
  const std::string var_kept = l.NewTensor("batch_var_kept", kept);
  reduce_mean(squared, var_kept);  // population (biased) variance, as the spec's reference
  const std::string batch_mean = l.NewTensor("batch_mean", {channels});
  l.Add("Reshape", {mean_kept, channel_shape}, batch_mean);
  const std::string batch_var = l.NewTensor("batch_var", {channels});
  l.Add("Reshape", {var_kept, channel_shape}, batch_var);

  // Y: inference BatchNormalization with the batch's statistics.
  Node& normalize = l.Add("BatchNormalization", {x, bn.inputs[1], bn.inputs[2], batch_mean, batch_var}, bn.outputs[0]);
  normalize.attributes = bn.attributes;
  normalize.attributes.erase("training_mode");
  normalize.attributes.erase("momentum");

  // running = input * momentum + batch * (1 - momentum), for each output read.
  std::string keep, take;
  for (size_t i = 1; i < bn.outputs.size(); ++i) {
    if (!Used(readers, bn.outputs[i])) {
      if (!bn.outputs[i].empty()) graph.tensors.erase(bn.outputs[i]);  // nothing will produce it
      continue;
    }
    if (keep.empty()) {
      keep = l.Constant("momentum", TensorData::FromFloats({}, {momentum}));
      take = l.Constant("one_minus_momentum", TensorData::FromFloats({}, {1.0f - momentum}));
    }
    const std::string& running = bn.inputs[2 + i];  // input_mean, input_var
    const std::string& batch = i == 1 ? batch_mean : batch_var;
    const std::string kept_part = l.NewTensor(i == 1 ? "kept_mean" : "kept_var", {channels});
    l.Add("Mul", {running, keep}, kept_part);
    const std::string new_part = l.NewTensor(i == 1 ? "new_mean" : "new_var", {channels});
    l.Add("Mul", {batch, take}, new_part);
    l.Add("Add", {kept_part, new_part}, bn.outputs[i]);
  }
  return l.TakeNodes();
}

}  // namespace

StatusOr<int> LowerTrainingBatchNorm(Graph& graph) {
  if (graph.opset < 14) return 0;  // no training_mode attribute before opset 14
  const std::map<std::string, int> readers = CountReaders(graph);
  return LowerNodes(
      graph,
      [](const Node& node) {
        return node.op_type == "BatchNormalization" && node.domain.empty() && node.GetInt("training_mode", 0) != 0;
      },
      [&](const Node& node, std::set<std::string>& names) { return Lower(graph, node, readers, names); });
}

}  // namespace glpool
