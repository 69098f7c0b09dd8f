// InferNodeWithOnnx (see import_state.h).
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <set>

#include "gpu_backend/import/import_state.h"
#include "gpu_backend/import/op_signatures.h"

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

// ONNX's per-op inference functions trust what its checker and its own
// earlier passes would have established; several (in the libonnx glpool is
// built with) index an input's dims by the rank the op expects and read
// out of bounds when a model gives another (a scalar STFT signal, a GRU
// with a scalar X, a QLinearConv whose X and W ranks differ: each found by
// the ONNX fuzz target). glpool runs none of these ops, so it does not hand
// them to ONNX's inference at all: their types come from the model's
// declarations or they stay unknown (an error naming the tensor).
bool OnnxInferenceIsUnsafeFor(const std::string& op) {
  static const std::set<std::string> kOps = {
      // signal processing and recurrent ops
      "STFT", "DFT", "MelWeightMatrix", "HannWindow", "HammingWindow", "BlackmanWindow", "RNN", "GRU", "LSTM",
      // control flow and sequences (subgraphs or sequence types)
      "If", "Loop", "Scan", "SequenceAt", "SequenceConstruct", "SequenceEmpty", "SequenceErase", "SequenceInsert",
      "SequenceLength", "SplitToSequence", "ConcatFromSequence", "Optional", "OptionalGetElement",
      "OptionalHasElement",
      // quantized and integer convolutions
      "QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger", "DynamicQuantizeLinear",
      // detection and sampling ops with multi-input shape arithmetic
      "RoiAlign", "MaxRoiPool", "NonMaxSuppression", "GridSample", "Col2Im", "DeformConv",
      // string ops
      "TfIdfVectorizer", "StringNormalizer", "RegexFullMatch", "StringConcat", "StringSplit"};
  return kOps.count(op) != 0;
}

}  // namespace

StatusOr<std::vector<TypeHint>> InferNodeWithOnnx(const Node& node, const ImportState& state) {
  if (OnnxInferenceIsUnsafeFor(node.op_type)) {
    return UnsupportedError("glpool does not run ONNX's shape inference for " + node.op_type +
                            " (its checks assume a validated model)");
  }
  // Past libonnx's newest opset, its schema still describes an op whose
  // signature did not change since (FindOpSignature), so its inference runs
  // at that opset; an op that changed has a rule of ours or no answer.
  if (IsNewerThanLibOnnx(node.op_type, state.graph.opset)) {
    return UnsupportedError("glpool has no shape rule for " + node.op_type + " at opset " +
                            std::to_string(state.graph.opset) + ", and libonnx's describes an older version");
  }
  auto proto = state.node_protos.find(node.name);
  if (proto == state.node_protos.end()) return InternalError("no NodeProto for node '" + node.name + "'");
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(std::min(state.graph.opset, LibOnnxMaxOpset()));
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
