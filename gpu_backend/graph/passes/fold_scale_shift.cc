// FoldScaleShiftIntoConv (passes.h): Conv or ConvTranspose -> Mul or Add by
// a constant that is the same along every axis but the channels.
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"

namespace glpool {
namespace {

// The constant's value per output channel of a rank-`rank` Conv output with
// `channels` channels, or false when it varies along another axis (or would
// broadcast the output to a larger shape).
bool PerChannel(const Tensor& constant, size_t rank, int64_t channels, std::vector<float>* values) {
  const Shape& shape = constant.shape;
  if (shape.size() > rank) return false;
  const size_t skip = rank - shape.size();  // numpy broadcasting aligns the last axes
  int64_t along_channels = 1;
  for (size_t k = 0; k < shape.size(); ++k) {
    const size_t axis = skip + k;
    if (axis == 1 && (shape[k] == channels || shape[k] == 1)) {
      along_channels = shape[k];
    } else if (shape[k] != 1) {
      return false;
    }
  }
  const std::vector<float> data = constant.data.ToFloats();
  values->assign(static_cast<size_t>(channels), 0.0f);
  for (int64_t c = 0; c < channels; ++c) (*values)[static_cast<size_t>(c)] = data[static_cast<size_t>(along_channels == 1 ? 0 : c)];
  return true;
}

// Folds node `op` (Mul or Add, one operand `side` the Conv's output) into
// Conv node `conv`'s weights and bias; false if they do not qualify.
bool Fold(Graph& graph, Node& conv, const Node& op, size_t side) {
  if (HasFusedEpilogue(conv) || conv.outputs.size() != 1) return false;
  const Tensor* constant = ConstantFp32(graph, op.inputs[1 - side]);
  const Tensor* weight = conv.inputs.size() > 1 ? ConstantFp32(graph, conv.inputs[1]) : nullptr;
  const bool has_bias = conv.inputs.size() > 2 && !conv.inputs[2].empty();
  const Tensor* bias = has_bias ? ConstantFp32(graph, conv.inputs[2]) : nullptr;
  const Tensor* out = graph.FindTensor(conv.outputs[0]);
  const Tensor* result = graph.FindTensor(op.outputs[0]);
  if (!constant || !weight || (has_bias && !bias) || !out || !result) return false;
  if (out->dtype != DataType::kFloat32 || out->shape.size() < 3 || result->shape != out->shape) return false;
  const std::vector<int64_t> feeds = WeightOutputChannels(conv, weight->shape);
  const int64_t channels = ConvOutputChannelCount(conv, weight->shape);
  if (static_cast<int64_t>(feeds.size()) != weight->data.element_count() || channels == 0) return false;
  if (out->shape[1] != channels || (bias && bias->data.element_count() != channels)) return false;
  std::vector<float> per_channel;
  if (!PerChannel(*constant, out->shape.size(), channels, &per_channel)) return false;

  std::vector<float> w;
  std::vector<float> b = bias ? bias->data.ToFloats() : std::vector<float>(static_cast<size_t>(channels), 0.0f);
  if (op.op_type == "Mul") {
    w = weight->data.ToFloats();
    for (size_t i = 0; i < w.size(); ++i) w[i] *= per_channel[static_cast<size_t>(feeds[i])];
    for (size_t m = 0; m < static_cast<size_t>(channels); ++m) b[m] *= per_channel[m];
  } else {
    for (size_t m = 0; m < static_cast<size_t>(channels); ++m) b[m] += per_channel[m];
  }
  ReplaceConvConstants(graph, conv, w, b, "_folded");
  return true;
}

}  // namespace

StatusOr<int> FoldScaleShiftIntoConv(Graph& graph) {
  return FoldIntoProducers(graph, [&graph](const Node& op, size_t side, Node& conv) {
    if (!op.domain.empty() || (op.op_type != "Mul" && op.op_type != "Add") || op.inputs.size() != 2 ||
        op.outputs.size() != 1 || op.HasAttribute(kFusedActivationAttr)) {
      return false;
    }
    return conv.domain.empty() && (conv.op_type == "Conv" || conv.op_type == "ConvTranspose") &&
           Fold(graph, conv, op, side);
  });
}

}  // namespace glpool
