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

bool HasConstantConvWeights(const Graph& graph, const Node& conv) {
  if (conv.inputs.size() < 2) return false;
  const Tensor* w = graph.FindTensor(conv.inputs[1]);
  if (w == nullptr || !w->is_constant) return false;
  if (conv.inputs.size() < 3 || conv.inputs[2].empty()) return true;
  const Tensor* b = graph.FindTensor(conv.inputs[2]);
  return b != nullptr && b->is_constant;
}

bool HasFusedEpilogue(const Node& node) {
  return node.HasAttribute(kFusedActivationAttr) || node.HasAttribute(kFusedOutputScaleAttr) ||
         node.HasAttribute(kFusedOutputShiftAttr);
}

bool IsBinaryOfTwo(const Node& node, const std::string& op_type) {
  return node.domain.empty() && node.op_type == op_type && node.inputs.size() == 2 && node.outputs.size() == 1 &&
         node.inputs[0] != node.inputs[1];
}

long OnlyReader(const Graph& graph, const std::map<std::string, int>& readers, const std::string& name) {
  auto it = readers.find(name);
  if (it == readers.end() || it->second != 1 || IsGraphOutput(graph, name)) return -1;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    for (const std::string& in : graph.nodes[n].inputs) {
      if (in == name) return static_cast<long>(n);
    }
  }
  return -1;
}

std::string OtherInput(const Node& node, const std::string& x) {
  if (node.inputs.size() != 2) return "";
  if (node.inputs[0] == x) return node.inputs[1];
  if (node.inputs[1] == x) return node.inputs[0];
  return "";
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

int FoldIntoProducers(Graph& graph, const FoldIntoProducer& fold) {
  int folded = 0;
  // Rebuilt only after a rewrite.
  std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  auto unread = [&](const std::string& name) {
    auto it = readers.find(name);
    return name.empty() || it == readers.end() || it->second == 0;
  };
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& node = graph.nodes[i];
    if (node.outputs.empty() || !std::all_of(node.outputs.begin() + 1, node.outputs.end(), unread)) continue;
    for (size_t input = 0; input < node.inputs.size(); ++input) {
      const std::string& x = node.inputs[input];
      auto it = producer.find(x);
      if (it == producer.end() || readers.at(x) != 1 || IsGraphOutput(graph, x)) continue;
      Node& source = graph.nodes[it->second];
      if (source.outputs.size() != 1 || !fold(node, input, source)) continue;
      graph.tensors.erase(source.outputs[0]);
      source.outputs[0] = node.outputs[0];
      EraseNodes(graph, {i});
      --i;
      ++folded;
      readers = CountReaders(graph);
      producer = ProducerIndex(graph);
      break;
    }
  }
  return folded;
}

int64_t ConvOutputChannelCount(const Node& conv, const Shape& weights) {
  const int64_t group = conv.GetInt("group", 1);
  if (weights.size() < 2 || group < 1 || weights[0] <= 0 || weights[1] <= 0) return 0;
  if (conv.op_type != "ConvTranspose") return weights[0];
  return weights[0] % group == 0 ? weights[1] * group : 0;
}

std::vector<int64_t> WeightOutputChannels(const Node& conv, const Shape& weights) {
  const int64_t channels = ConvOutputChannelCount(conv, weights);
  if (channels == 0) return {};
  int64_t taps = 1;
  for (size_t k = 2; k < weights.size(); ++k) taps *= weights[k];
  const int64_t count = weights[0] * weights[1] * taps;
  std::vector<int64_t> out(static_cast<size_t>(count));
  if (conv.op_type != "ConvTranspose") {
    for (int64_t i = 0; i < count; ++i) out[static_cast<size_t>(i)] = i / (weights[1] * taps);
    return out;
  }
  const int64_t in_per_group = weights[0] / conv.GetInt("group", 1);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t in_channel = i / (weights[1] * taps);
    out[static_cast<size_t>(i)] = in_channel / in_per_group * weights[1] + (i / taps) % weights[1];
  }
  return out;
}

void ReplaceConvConstants(Graph& graph, Node& conv, const std::vector<float>& weights,
                          const std::vector<float>& bias, const std::string& suffix) {
  if (!weights.empty()) {
    const Shape shape = graph.FindTensor(conv.inputs[1])->shape;
    const std::string name = UniqueTensorName(graph, conv.inputs[1] + suffix);
    AddConstantTensor(graph, name, TensorData::FromFloats(shape, weights));
    conv.inputs[1] = name;
  }
  const bool has_bias = conv.inputs.size() > 2 && !conv.inputs[2].empty();
  const std::string name = UniqueTensorName(graph, (has_bias ? conv.inputs[2] : conv.name + "_bias") + suffix);
  AddConstantTensor(graph, name, TensorData::FromFloats({static_cast<int64_t>(bias.size())}, bias));
  conv.inputs.resize(3);
  conv.inputs[2] = name;
}

}  // namespace glpool
