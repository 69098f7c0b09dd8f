// CollectTypeHints: the types the model file declares (see import_state.h).
#include "gpu_backend/import/import_state.h"

namespace glpool {
TypeHint TypeHintFromValueInfo(const onnx::ValueInfoProto& info) {
  TypeHint hint;
  if (!info.type().has_tensor_type()) return hint;
  const auto& tensor_type = info.type().tensor_type();
  hint.dtype = DataTypeFromOnnx(tensor_type.elem_type());
  if (tensor_type.has_shape()) {
    hint.has_shape = true;
    for (const auto& dim : tensor_type.shape().dim()) {
      hint.dims.push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value() : -1);
    }
  }
  return hint;
}

namespace {

void AddHint(const onnx::ValueInfoProto& info, ImportState* state) {
  if (!info.type().has_tensor_type()) return;
  const TypeHint hint = TypeHintFromValueInfo(info);
  TypeHint& slot = state->hints[info.name()];
  // Keep whichever knows more: a static shape beats a partial one.
  auto known = [](const TypeHint& h) {
    int count = h.has_shape ? 1 : 0;
    for (int64_t d : h.dims) count += d >= 0 ? 1 : 0;
    return count;
  };
  if (slot.dtype == DataType::kUndefined) slot.dtype = hint.dtype;
  if (known(hint) > known(slot)) {
    slot.has_shape = hint.has_shape;
    slot.dims = hint.dims;
  }
}

void AddHints(const onnx::GraphProto& g, ImportState* state) {
  for (const auto& info : g.value_info()) AddHint(info, state);
  for (const auto& info : g.output()) AddHint(info, state);
}

}  // namespace

void CollectTypeHints(const onnx::ModelProto& model, ImportState* state) {
  AddHints(model.graph(), state);
  for (const auto& node : model.graph().node()) {
    if (!node.name().empty()) state->node_protos[node.name()] = &node;
  }
  // Unnamed nodes were named "<op>_<index>" by ConvertModel.
  for (int i = 0; i < model.graph().node_size(); ++i) {
    const auto& node = model.graph().node(i);
    if (node.name().empty()) state->node_protos[node.op_type() + "_" + std::to_string(i)] = &node;
  }
}

}  // namespace glpool
