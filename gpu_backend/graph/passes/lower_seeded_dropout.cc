#include <optional>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/graph/seeded_dropout.h"

namespace glpool {
namespace {

// The node's constant scalar input `index`, or `fallback` when omitted;
// nullopt when the input is not a constant scalar.
std::optional<double> ConstantScalar(const Graph& graph, const Node& node, size_t index, double fallback) {
  if (index >= node.inputs.size() || node.inputs[index].empty()) return fallback;
  const Tensor* tensor = graph.FindTensor(node.inputs[index]);
  if (!tensor || !tensor->is_constant || tensor->data.element_count() != 1) return std::nullopt;
  return static_cast<double>(tensor->data.ToFloats()[0]);
}

}  // namespace

StatusOr<int> LowerSeededTrainingDropout(Graph& graph) {
  int lowered = 0;
  for (Node& node : graph.nodes) {
    if (node.op_type != "Dropout" || graph.opset < 12 || !node.HasAttribute("seed") || node.inputs.empty()) continue;
    const std::optional<double> training = ConstantScalar(graph, node, 2, 0.0);
    const std::optional<double> ratio = ConstantScalar(graph, node, 1, 0.5);
    const Tensor* x = graph.FindTensor(node.inputs[0]);
    if (!training || *training == 0.0 || !ratio || *ratio < 0.0 || *ratio >= 1.0 || !x ||
        x->dtype != DataType::kFloat32) {
      continue;
    }
    const int64_t count = ElementCount(x->shape);
    const std::vector<uint8_t> keep = SeededDropoutMask(node.GetInt("seed", 0), count, static_cast<float>(*ratio));
    // y = x * (keep ? 1 / (1 - ratio) : 0), one Mul by a constant.
    const float scale = static_cast<float>(1.0 / (1.0 - *ratio));
    std::vector<float> factors(keep.size());
    for (size_t i = 0; i < keep.size(); ++i) factors[i] = keep[i] ? scale : 0.0f;
    const std::string factor_name = UniqueTensorName(graph, node.name + "_keep_scale");
    AddConstantTensor(graph, factor_name, TensorData::FromFloats(x->shape, factors));
    if (node.outputs.size() > 1 && !node.outputs[1].empty()) {
      TensorData mask;
      mask.dtype = DataType::kBool;
      mask.shape = x->shape;
      mask.bytes = keep;
      AddConstantTensor(graph, node.outputs[1], std::move(mask));
    }
    const std::string input = node.inputs[0];
    const std::string output = node.outputs[0];
    node.op_type = "Mul";
    node.attributes.clear();
    node.inputs = {input, factor_name};
    node.outputs = {output};
    ++lowered;
  }
  return lowered;
}

}  // namespace glpool
