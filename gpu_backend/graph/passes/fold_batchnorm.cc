#include <cmath>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

const Tensor* ConstantFp32(const Graph& graph, const Node& node, size_t index) {
  if (index >= node.inputs.size() || node.inputs[index].empty()) return nullptr;
  const Tensor* tensor = graph.FindTensor(node.inputs[index]);
  if (!tensor || !tensor->is_constant || tensor->dtype != DataType::kFloat32) return nullptr;
  return tensor;
}

bool OnlyFirstOutputUsed(const Node& node, const std::map<std::string, int>& readers) {
  for (size_t i = 1; i < node.outputs.size(); ++i) {
    auto it = readers.find(node.outputs[i]);
    if (!node.outputs[i].empty() && it != readers.end() && it->second > 0) return false;
  }
  return true;
}

// Folds BN node `bn` into Conv node `conv`; false if they do not qualify.
bool Fold(Graph& graph, Node& conv, const Node& bn) {
  if (conv.HasAttribute(kFusedActivationAttr) || conv.HasAttribute(kFusedOutputScaleAttr) ||
      conv.HasAttribute(kFusedOutputShiftAttr) || bn.GetInt("spatial", 1) == 0) return false;
  // Training mode normalizes with the batch's statistics, not the constants.
  if (graph.opset >= 14 && bn.GetInt("training_mode", 0) != 0) return false;
  const Tensor* weight = ConstantFp32(graph, conv, 1);
  const Tensor* scale = ConstantFp32(graph, bn, 1);
  const Tensor* shift = ConstantFp32(graph, bn, 2);
  const Tensor* mean = ConstantFp32(graph, bn, 3);
  const Tensor* var = ConstantFp32(graph, bn, 4);
  const bool has_bias = conv.inputs.size() > 2 && !conv.inputs[2].empty();
  const Tensor* bias = has_bias ? ConstantFp32(graph, conv, 2) : nullptr;
  if (!weight || !scale || !shift || !mean || !var || (has_bias && !bias) || weight->shape.empty()) return false;
  const int64_t channels = weight->shape[0];
  for (const Tensor* t : {scale, shift, mean, var}) {
    if (t->data.element_count() != channels) return false;
  }
  if (bias && bias->data.element_count() != channels) return false;
  const float epsilon = bn.GetFloat("epsilon", 1e-5f);
  const std::vector<float> s_in = scale->data.ToFloats(), beta = shift->data.ToFloats();
  const std::vector<float> mu = mean->data.ToFloats(), sigma2 = var->data.ToFloats();
  std::vector<float> w = weight->data.ToFloats();
  std::vector<float> b = bias ? bias->data.ToFloats() : std::vector<float>(static_cast<size_t>(channels), 0.0f);
  const size_t per_channel = w.size() / static_cast<size_t>(channels);
  for (size_t m = 0; m < static_cast<size_t>(channels); ++m) {
    const double s = s_in[m] / std::sqrt(static_cast<double>(sigma2[m]) + epsilon);
    for (size_t k = 0; k < per_channel; ++k) w[m * per_channel + k] = static_cast<float>(w[m * per_channel + k] * s);
    b[m] = static_cast<float>((b[m] - mu[m]) * s + beta[m]);
  }
  const std::string w_name = UniqueTensorName(graph, conv.inputs[1] + "_bn");
  const std::string b_name = UniqueTensorName(graph, (has_bias ? conv.inputs[2] : conv.name + "_bias") + "_bn");
  const Shape w_shape = weight->shape;
  AddConstantTensor(graph, w_name, TensorData::FromFloats(w_shape, w));
  AddConstantTensor(graph, b_name, TensorData::FromFloats({channels}, b));
  conv.inputs.resize(3);
  conv.inputs[1] = w_name;
  conv.inputs[2] = b_name;
  graph.tensors.erase(conv.outputs[0]);
  conv.outputs[0] = bn.outputs[0];
  return true;
}

}  // namespace

StatusOr<int> FoldBatchNormIntoConv(Graph& graph) {
  int folded = 0;
  // Rebuilt only after a rewrite.
  std::map<std::string, int> readers = CountReaders(graph);
  std::map<std::string, size_t> producer = ProducerIndex(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& bn = graph.nodes[i];
    if (bn.op_type != "BatchNormalization" || bn.inputs.size() < 5 || bn.outputs.empty()) continue;
    if (!OnlyFirstOutputUsed(bn, readers)) continue;
    const std::string& x = bn.inputs[0];
    auto it = producer.find(x);
    if (it == producer.end() || readers.at(x) != 1 || IsGraphOutput(graph, x)) continue;
    Node& conv = graph.nodes[it->second];
    if (conv.op_type != "Conv" || conv.outputs.size() != 1) continue;
    if (!Fold(graph, conv, bn)) continue;
    EraseNodes(graph, {i});
    --i;
    ++folded;
    readers = CountReaders(graph);
    producer = ProducerIndex(graph);
  }
  return folded;
}

}  // namespace glpool
