#include "gpu_backend/import/shape_rules.h"

#include "gpu_backend/import/shape_rules_table.h"

namespace glpool {

namespace {

const ShapeRuleTable& Rules() {
  static const ShapeRuleTable table = [] {
    ShapeRuleTable t;
    AddElementwiseRules(&t);
    AddLayoutRules(&t);
    AddSpatialRules(&t);
    AddRecurrentRules(&t);
    AddQuantizedRules(&t);
    return t;
  }();
  return table;
}

}  // namespace

bool HasShapeRule(const std::string& op_type) { return Rules().count(op_type) != 0; }

StatusOr<std::vector<TensorType>> InferNodeTypes(const Graph& graph, const Node& node) {
  auto it = Rules().find(node.op_type);
  if (it == Rules().end() || !node.domain.empty()) {
    return UnsupportedError("no shape rule for op " + node.op_type);
  }
  NodeView view(graph, node);
  GLPOOL_ASSIGN_OR_RETURN(std::vector<TensorType> types, it->second(view));
  // Rules describe the outputs an op can have; trim to the ones it uses.
  if (types.size() < node.outputs.size()) {
    return InvalidModelError(node.op_type + " has " + std::to_string(node.outputs.size()) +
                             " outputs, the op defines " + std::to_string(types.size()));
  }
  types.resize(node.outputs.size());
  for (size_t i = 0; i < types.size(); ++i) {
    // Bounded so element counts can never overflow downstream.
    for (int64_t d : types[i].shape) {
      if (d < 0) return InvalidModelError("computed a negative dimension: " + ShapeToString(types[i].shape));
    }
    GLPOOL_RETURN_IF_ERROR(CheckTensorSize("output '" + node.outputs[i] + "'", types[i].shape, types[i].dtype));
  }
  return types;
}

}  // namespace glpool
