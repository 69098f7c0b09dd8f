// ResolveShapes and AdjustRandomWeights (see import_state.h).
#include <iterator>

#include "gpu_backend/import/constant_folding.h"
#include "gpu_backend/import/import_state.h"
#include "gpu_backend/import/node_view.h"
#include "gpu_backend/import/random_weights.h"
#include "gpu_backend/import/shape_rules.h"

namespace glpool {
namespace {

std::string NodeLabel(const Node& node) { return "node '" + node.name + "' (" + node.op_type + ")"; }

bool InputsResolved(const Node& node, const ImportState& state) {
  for (const std::string& in : node.inputs) {
    if (!in.empty() && !state.resolved.count(in)) return false;
  }
  return true;
}

bool OutputsResolved(const Node& node, const ImportState& state) {
  for (const std::string& out : node.outputs) {
    if (!out.empty() && !state.resolved.count(out)) return false;
  }
  return true;
}

bool HintIsStatic(const TypeHint& hint) {
  if (!hint.has_shape || hint.dtype == DataType::kUndefined) return false;
  for (int64_t d : hint.dims) {
    if (d < 0) return false;
  }
  return true;
}

// Types for the node's outputs from the types the model declares, then
// from ONNX's inference on this node alone; or `why` (the reason our own
// rule failed) naming the first output still unknown.
StatusOr<std::vector<TensorType>> TypesFromHints(const Node& node, const ImportState& state, const Status& why) {
  std::vector<TypeHint> hints;
  bool all_static = true;
  for (const std::string& out : node.outputs) {
    auto it = state.hints.find(out);
    hints.push_back(it == state.hints.end() ? TypeHint{} : it->second);
    all_static = all_static && (out.empty() || HintIsStatic(hints.back()));
  }
  std::string onnx_note;
  if (!all_static) {
    StatusOr<std::vector<TypeHint>> inferred = InferNodeWithOnnx(node, state);
    if (inferred.ok()) {
      for (size_t i = 0; i < hints.size(); ++i) {
        if (!HintIsStatic(hints[i]) && HintIsStatic((*inferred)[i])) hints[i] = (*inferred)[i];
      }
    } else {
      onnx_note = " (" + inferred.status().message() + ")";
    }
  }
  std::vector<TensorType> types;
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    const std::string& out = node.outputs[i];
    if (out.empty()) {
      types.push_back({});
      continue;
    }
    if (!HintIsStatic(hints[i])) {
      std::string message = "cannot infer a static shape for tensor '" + out + "'";
      if (hints[i].has_shape) message += " (the model declares " + ShapeToString(hints[i].dims) + ")";
      message += onnx_note;
      return why.code() == StatusCode::kUnsupported && !HasShapeRule(node.op_type)
                 ? UnsupportedError(message + ": glpool has no shape rule for " + node.op_type)
                 : Status(why.code(), message + ": " + why.message());
    }
    GLPOOL_RETURN_IF_ERROR(CheckTensorSize("output '" + out + "'", hints[i].dims, hints[i].dtype));
    types.push_back({hints[i].dtype, hints[i].dims});
  }
  return types;
}

void SetOutputs(const Node& node, const std::vector<TensorType>& types, ImportState* state) {
  for (size_t i = 0; i < node.outputs.size() && i < types.size(); ++i) {
    if (node.outputs[i].empty()) continue;
    Tensor& tensor = state->graph.tensors[node.outputs[i]];
    tensor.dtype = types[i].dtype;
    tensor.shape = types[i].shape;
    state->resolved.insert(node.outputs[i]);
  }
}

// Folds `node` if it can be; true when it became constants.
StatusOr<bool> TryFold(const Node& node, ImportState* state) {
  if (!state->options.fold_constants || !CanFoldNode(state->graph, node)) return false;
  GLPOOL_ASSIGN_OR_RETURN(auto values, FoldNode(state->graph, node));
  if (!values) return false;
  for (size_t i = 0; i < node.outputs.size() && i < values->size(); ++i) {
    if (node.outputs[i].empty()) continue;
    Tensor& tensor = state->graph.tensors[node.outputs[i]];
    TensorData& data = (*values)[i];
    tensor.dtype = data.dtype;
    tensor.shape = data.shape;
    tensor.is_constant = true;
    tensor.data = std::move(data);
    state->resolved.insert(node.outputs[i]);
  }
  return true;
}

// Before opset 7, PRelu applied a slope of shape [C] per channel; numpy
// broadcasting would align it with the last dim. Rewrites the constant
// slope to [C, 1, ...] so every executor can use the modern rule.
void NormalizeLegacyPRelu(Node& node, ImportState* state) {
  if (state->graph.opset >= 7 || node.op_type != "PRelu" || node.inputs.size() != 2) return;
  const Tensor* x = state->graph.FindTensor(node.inputs[0]);
  const Tensor* slope = state->graph.FindTensor(node.inputs[1]);
  if (!x || !slope || !slope->is_constant || slope->shape.size() != 1 || x->shape.size() < 3) return;
  if (slope->shape[0] != x->shape[1] || slope->shape[0] == 1) return;
  Tensor reshaped = *slope;
  reshaped.name = slope->name + "_per_channel";
  reshaped.shape.resize(x->shape.size() - 1, 1);
  reshaped.data.shape = reshaped.shape;
  node.inputs[1] = reshaped.name;
  state->resolved.insert(reshaped.name);
  state->graph.tensors[reshaped.name] = std::move(reshaped);
}

}  // namespace

Status ResolveShapes(ImportState* state) {
  std::vector<bool> folded(state->graph.nodes.size(), false);
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = 0; i < state->graph.nodes.size(); ++i) {
      Node& node = state->graph.nodes[i];
      if (folded[i] || OutputsResolved(node, *state) || !InputsResolved(node, *state)) continue;
      if (node.op_type == "If" && node.domain.empty()) {
        StatusOr<IfResolution> resolved = ResolveIf(node, state);
        if (!resolved.ok()) return resolved.status().WithContext(NodeLabel(node));
        if (resolved->inlined) {
          // The branch stands where the If stood: its inputs come earlier,
          // the If's readers later, so the order stays topological.
          folded[i] = true;
          const auto at = static_cast<std::ptrdiff_t>(i + 1);
          folded.insert(folded.begin() + at, resolved->nodes.size(), false);
          state->graph.nodes.insert(state->graph.nodes.begin() + at, std::make_move_iterator(resolved->nodes.begin()),
                                    std::make_move_iterator(resolved->nodes.end()));
        }
        changed = true;
        continue;
      }
      NormalizeLegacyPRelu(node, state);
      StatusOr<bool> did_fold = TryFold(node, state);
      if (!did_fold.ok()) return did_fold.status().WithContext(NodeLabel(node));
      if (*did_fold) {
        folded[i] = true;
        changed = true;
        continue;
      }
      StatusOr<std::vector<TensorType>> types = InferNodeTypes(state->graph, node);
      if (!types.ok()) {
        // Invalid-model errors from our rules are real; an op we have no
        // rule for, or an operand computed at run time, may still have a
        // static type from the model or ONNX's inference.
        const bool has_rule = HasShapeRule(node.op_type) && node.domain.empty();
        if (has_rule && !IsRunTimeOperandError(types.status())) return types.status().WithContext(NodeLabel(node));
        types = TypesFromHints(node, *state, types.status());
        if (!types.ok()) return types.status().WithContext(NodeLabel(node));
      }
      SetOutputs(node, *types, state);
      changed = true;
    }
  }
  std::vector<Node> kept;
  for (size_t i = 0; i < state->graph.nodes.size(); ++i) {
    Node& node = state->graph.nodes[i];
    if (folded[i]) continue;
    if (!OutputsResolved(node, *state)) {
      for (const std::string& in : node.inputs) {
        if (!in.empty() && !state->resolved.count(in)) {
          return InvalidModelError(NodeLabel(node) + ": input '" + in + "' has no static shape");
        }
      }
      return InternalError(NodeLabel(node) + ": outputs left unresolved");
    }
    kept.push_back(std::move(node));
  }
  state->graph.nodes = std::move(kept);
  for (const auto& [name, tensor] : state->graph.tensors) {
    if (tensor.dtype == DataType::kUndefined) {
      return UnsupportedError("tensor '" + name + "' has an unknown or unsupported data type");
    }
  }
  return Status::Ok();
}

void AdjustRandomWeights(ImportState* state) {
  for (const Node& node : state->graph.nodes) {
    if (node.op_type != "BatchNormalization" && node.op_type != "InstanceNormalization" &&
        node.op_type != "LayerNormalization") {
      continue;
    }
    for (size_t i = 1; i < node.inputs.size(); ++i) {
      const std::string& name = node.inputs[i];
      if (!state->random_filled.count(name)) continue;
      Tensor& tensor = state->graph.tensors[name];
      // Scale near 1, bias and mean near 0, variance positive.
      const bool is_bn = node.op_type == "BatchNormalization";
      if (i == 1) {
        tensor.data = RandomTensorDataInRange(name, tensor.dtype, tensor.shape, 0.5f, 1.5f);
      } else if (is_bn && i == 4) {
        tensor.data = RandomTensorDataInRange(name, tensor.dtype, tensor.shape, 0.5f, 1.5f);
      } else {
        tensor.data = RandomTensorDataInRange(name, tensor.dtype, tensor.shape, -0.1f, 0.1f);
      }
    }
  }
}

}  // namespace glpool
