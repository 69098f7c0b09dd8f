#include "gpu_backend/graph/passes/graph_edit.h"

#include <algorithm>

namespace glpool {

std::map<std::string, int> CountReaders(const Graph& graph) {
  std::map<std::string, int> readers;
  for (const Node& node : graph.nodes) {
    for (const std::string& in : node.inputs) {
      if (!in.empty()) ++readers[in];
    }
  }
  for (const std::string& out : graph.outputs) ++readers[out];
  return readers;
}

std::map<std::string, size_t> ProducerIndex(const Graph& graph) {
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    for (const std::string& out : graph.nodes[i].outputs) {
      if (!out.empty()) producer[out] = i;
    }
  }
  return producer;
}

bool IsGraphOutput(const Graph& graph, const std::string& name) {
  return std::find(graph.outputs.begin(), graph.outputs.end(), name) != graph.outputs.end();
}

bool IsGraphInput(const Graph& graph, const std::string& name) {
  return std::find(graph.inputs.begin(), graph.inputs.end(), name) != graph.inputs.end();
}

void RenameReaders(Graph& graph, const std::string& from, const std::string& to) {
  for (Node& node : graph.nodes) {
    for (std::string& in : node.inputs) {
      if (in == from) in = to;
    }
  }
  for (std::string& out : graph.outputs) {
    if (out == from) out = to;
  }
}

void EraseNodes(Graph& graph, const std::set<size_t>& drop) {
  if (drop.empty()) return;
  std::vector<Node> kept;
  kept.reserve(graph.nodes.size() - drop.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    if (!drop.count(i)) kept.push_back(std::move(graph.nodes[i]));
  }
  graph.nodes = std::move(kept);
}

std::string UniqueTensorName(const Graph& graph, const std::string& base) {
  if (!graph.tensors.count(base)) return base;
  for (int i = 1;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (!graph.tensors.count(name)) return name;
  }
}

void AddConstantTensor(Graph& graph, const std::string& name, TensorData data) {
  Tensor tensor;
  tensor.name = name;
  tensor.dtype = data.dtype;
  tensor.shape = data.shape;
  tensor.is_constant = true;
  tensor.data = std::move(data);
  graph.tensors[name] = std::move(tensor);
}

const Tensor* ConstantFp32(const Graph& graph, const std::string& name) {
  const Tensor* tensor = name.empty() ? nullptr : graph.FindTensor(name);
  if (!tensor || !tensor->is_constant || tensor->dtype != DataType::kFloat32) return nullptr;
  return tensor;
}

bool ScalarFp32(const Graph& graph, const std::string& name, float* value) {
  const Tensor* tensor = ConstantFp32(graph, name);
  if (!tensor || tensor->data.element_count() != 1) return false;
  *value = tensor->data.ToFloats()[0];
  return true;
}

}  // namespace glpool
