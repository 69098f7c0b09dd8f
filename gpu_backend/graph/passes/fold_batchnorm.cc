#include <cmath>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

// Node input `index` when it is a constant fp32 tensor, else null.
const Tensor* ConstantInput(const Graph& graph, const Node& node, size_t index) {
  return index < node.inputs.size() ? ConstantFp32(graph, node.inputs[index]) : nullptr;
}

// Folds BN node `bn` into Conv node `conv`; false if they do not qualify.
bool Fold(Graph& graph, Node& conv, const Node& bn) {
  if (HasFusedEpilogue(conv) || bn.GetInt("spatial", 1) == 0) return false;
  // Training mode normalizes with the batch's statistics, not the constants.
  if (graph.opset >= 14 && bn.GetInt("training_mode", 0) != 0) return false;
  const Tensor* weight = ConstantInput(graph, conv, 1);
  const Tensor* scale = ConstantInput(graph, bn, 1);
  const Tensor* shift = ConstantInput(graph, bn, 2);
  const Tensor* mean = ConstantInput(graph, bn, 3);
  const Tensor* var = ConstantInput(graph, bn, 4);
  const bool has_bias = conv.inputs.size() > 2 && !conv.inputs[2].empty();
  const Tensor* bias = has_bias ? ConstantInput(graph, conv, 2) : nullptr;
  if (!weight || !scale || !shift || !mean || !var || (has_bias && !bias)) return false;
  const std::vector<int64_t> feeds = WeightOutputChannels(conv, weight->shape);
  const int64_t channels = ConvOutputChannelCount(conv, weight->shape);
  if (static_cast<int64_t>(feeds.size()) != weight->data.element_count() || channels == 0) return false;
  for (const Tensor* t : {scale, shift, mean, var}) {
    if (t->data.element_count() != channels) return false;
  }
  if (bias && bias->data.element_count() != channels) return false;
  const float epsilon = bn.GetFloat("epsilon", 1e-5f);
  const std::vector<float> s_in = scale->data.ToFloats(), beta = shift->data.ToFloats();
  const std::vector<float> mu = mean->data.ToFloats(), sigma2 = var->data.ToFloats();
  std::vector<float> w = weight->data.ToFloats();
  std::vector<float> b = bias ? bias->data.ToFloats() : std::vector<float>(static_cast<size_t>(channels), 0.0f);
  std::vector<double> factor(static_cast<size_t>(channels));
  for (size_t m = 0; m < static_cast<size_t>(channels); ++m) {
    factor[m] = s_in[m] / std::sqrt(static_cast<double>(sigma2[m]) + epsilon);
    b[m] = static_cast<float>((b[m] - mu[m]) * factor[m] + beta[m]);
  }
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(w[i] * factor[static_cast<size_t>(feeds[i])]);
  ReplaceConvConstants(graph, conv, w, b, "_bn");
  return true;
}

}  // namespace

StatusOr<int> FoldBatchNormIntoConv(Graph& graph) {
  return FoldIntoProducers(graph, [&graph](const Node& bn, size_t input, Node& conv) {
    return input == 0 && bn.op_type == "BatchNormalization" && bn.inputs.size() >= 5 &&
           (conv.op_type == "Conv" || conv.op_type == "ConvTranspose") && conv.domain.empty() &&
           Fold(graph, conv, bn);
  });
}

}  // namespace glpool
