// InferNodeWithOnnx (see import_state.h).
#include <onnx/shape_inference/implementation.h>

#include "gpu_backend/import/import_state.h"

namespace glpool {
namespace {

void SetType(const Tensor& tensor, onnx::ValueInfoProto* info) {
  info->set_name(tensor.name);
  auto* type = info->mutable_type()->mutable_tensor_type();
  type->set_elem_type(OnnxFromDataType(tensor.dtype));
  auto* shape = type->mutable_shape();
  for (int64_t d : tensor.shape) shape->add_dim()->set_dim_value(d);
}

// ONNX's messages run to several lines and hundreds of characters (the
// node dumped again); ours name the node already, so keep the first line.
std::string FirstLine(const std::string& text) {
  constexpr size_t kMaxChars = 200;
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > kMaxChars) line = line.substr(0, kMaxChars) + "...";
  return line;
}

// ONNX's per-op inference functions trust what its checker would have
// checked (the schema's arity and attributes are checked at import); some
// also index one input's dims by another's rank and read out of bounds when
// they differ. Those preconditions are checked here first.
Status CheckOnnxInferencePreconditions(const Node& node, const ImportState& state) {
  auto rank = [&](size_t i) -> int64_t {
    if (i >= node.inputs.size() || node.inputs[i].empty()) return -1;
    const Tensor* tensor = state.graph.FindTensor(node.inputs[i]);
    return tensor ? static_cast<int64_t>(tensor->shape.size()) : -1;
  };
  // Convolutions: X and W of one rank, at least 3 (N, C and a spatial dim).
  size_t weight = 0;
  if (node.op_type == "ConvInteger") weight = 1;
  if (node.op_type == "QLinearConv") weight = 3;
  if (weight > 0 && (rank(0) < 3 || rank(0) != rank(weight))) {
    return InvalidModelError(node.op_type + " needs X and W of one rank of at least 3, not " +
                             std::to_string(rank(0)) + " and " + std::to_string(rank(weight)));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::vector<TypeHint>> InferNodeWithOnnx(const Node& node, const ImportState& state) {
  GLPOOL_RETURN_IF_ERROR(CheckOnnxInferencePreconditions(node, state));
  auto proto = state.node_protos.find(node.name);
  if (proto == state.node_protos.end()) return InternalError("no NodeProto for node '" + node.name + "'");
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(state.graph.opset);
  onnx::GraphProto* graph = model.mutable_graph();
  *graph->add_node() = *proto->second;
  for (const std::string& name : node.inputs) {
    if (name.empty()) continue;
    const Tensor* tensor = state.graph.FindTensor(name);
    if (!tensor) return InternalError("input '" + name + "' is undefined");
    if (tensor->is_constant) {
      TensorDataToProto(tensor->data, name, graph->add_initializer());
    } else {
      SetType(*tensor, graph->add_input());
    }
  }
  for (const std::string& name : node.outputs) {
    if (!name.empty()) graph->add_output()->set_name(name);
  }
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/1, /*data_prop=*/true);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    return UnsupportedError("ONNX shape inference failed: " + FirstLine(e.what()));
  }
  std::map<std::string, TypeHint> found;
  for (const auto& info : graph->value_info()) found[info.name()] = TypeHintFromValueInfo(info);
  for (const auto& info : graph->output()) {
    if (info.has_type()) found[info.name()] = TypeHintFromValueInfo(info);
  }
  std::vector<TypeHint> hints;
  for (const std::string& name : node.outputs) hints.push_back(found.count(name) ? found[name] : TypeHint{});
  return hints;
}

}  // namespace glpool
