// ConvertModel: ModelProto -> Graph skeleton (see import_state.h).
#include <algorithm>
#include <map>
#include <memory>
#include <queue>
#include <set>

#include "gpu_backend/import/import_state.h"
#include "gpu_backend/import/op_signatures.h"
#include "gpu_backend/import/random_weights.h"
#include "gpu_backend/import/shape_rules.h"

namespace glpool {
namespace {

// 7 to 21 is the contract; 1 to 6 are read too (ONNX's own test cases use
// them), legacy broadcasting being accepted where it equals numpy's.
constexpr int64_t kMinOpset = kMinSupportedOpset;
constexpr int64_t kMaxOpset = kMaxSupportedOpset;

// If inside If inside...: bounds the recursion a hostile model could ask for.
constexpr int kMaxSubgraphDepth = 8;

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

std::string NodeLabel(const Node& node) { return "node '" + node.name + "' (" + node.op_type + ")"; }

Status ReadOpset(const onnx::ModelProto& model, Graph* graph) {
  bool found = false;
  for (const auto& opset : model.opset_import()) {
    if (IsDefaultDomain(opset.domain())) {
      graph->opset = opset.version();
      found = true;
    }
  }
  if (!found) {
    // IR version 3+ requires opset_import; very old files imply opset 1.
    return UnsupportedError("the model declares no default-domain opset");
  }
  if (graph->opset < kMinOpset || graph->opset > kMaxOpset) {
    return UnsupportedError("opset " + std::to_string(graph->opset) + " is not supported (glpool reads " +
                            std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) + ")");
  }
  return Status::Ok();
}

// The bytes `proto`'s dims and dtype ask for, checked against the import's
// limit before anything is read or filled.
Status CheckInitializerSize(const onnx::TensorProto& proto, uint64_t limit) {
  const DataType dtype = DataTypeFromOnnx(proto.data_type());
  uint64_t bytes = std::max<size_t>(DataTypeSize(dtype), 1);
  for (int64_t d : proto.dims()) {
    if (d < 0) return Status::Ok();  // TensorDataFromProto names this error
    if (d > 0 && bytes > limit / static_cast<uint64_t>(d)) {
      return UnsupportedError("initializer '" + proto.name() + "' needs more than the " + std::to_string(limit) +
                              " bytes a weight may hold (ImportOptions::max_weight_bytes)");
    }
    bytes *= static_cast<uint64_t>(d);
  }
  if (bytes > limit) {
    return UnsupportedError("initializer '" + proto.name() + "' needs " + std::to_string(bytes) +
                            " bytes, more than the " + std::to_string(limit) +
                            " a weight may hold (ImportOptions::max_weight_bytes)");
  }
  return Status::Ok();
}

StatusOr<TensorData> InitializerData(const onnx::TensorProto& proto, ImportState* state) {
  GLPOOL_RETURN_IF_ERROR(CheckInitializerSize(proto, state->options.max_weight_bytes));
  StatusOr<TensorData> data = TensorDataFromProto(proto, state->model_dir, state->options.external_data_root);
  if (data.ok() || data.status().code() != StatusCode::kNotFound || !state->options.random_weights) {
    if (!data.ok() && data.status().code() == StatusCode::kNotFound) {
      return NotFoundError(data.status().message() +
                           "; the model ships without this weight file (--random-weights fills "
                           "missing weights deterministically for planning)");
    }
    return data;
  }
  Shape shape(proto.dims().begin(), proto.dims().end());
  state->random_filled.insert(proto.name());
  return RandomTensorData(proto.name(), DataTypeFromOnnx(proto.data_type()), shape);
}

Status AddConstant(const std::string& name, TensorData data, Graph* graph) {
  if (graph->tensors.count(name)) return InvalidModelError("tensor '" + name + "' is defined twice");
  Tensor tensor;
  tensor.name = name;
  tensor.dtype = data.dtype;
  tensor.shape = data.shape;
  tensor.is_constant = true;
  tensor.data = std::move(data);
  graph->tensors.emplace(name, std::move(tensor));
  return Status::Ok();
}

std::string DimName(const onnx::ValueInfoProto& info, size_t index) {
  const auto& dims = info.type().tensor_type().shape().dim();
  if (index < static_cast<size_t>(dims.size()) && dims[static_cast<int>(index)].has_dim_param()) {
    return " ('" + dims[static_cast<int>(index)].dim_param() + "')";
  }
  return "";
}

// The --input-shape form with the model's own names for its open dims
// ("x=batchx3xheightxwidth"), never a guess such as 1 for every one.
std::string InputShapeHelp(const onnx::ValueInfoProto& info, const TypeHint& hint) {
  const auto& dims = info.type().tensor_type().shape().dim();
  if (hint.dims.empty()) return "; give its shape with --input-shape " + info.name() + "=DxDx... (or --input FILE)";
  std::string form;
  for (size_t i = 0; i < hint.dims.size(); ++i) {
    std::string dim = "?";
    if (hint.dims[i] >= 0) {
      dim = std::to_string(hint.dims[i]);
    } else if (i < static_cast<size_t>(dims.size()) && dims[static_cast<int>(i)].has_dim_param()) {
      dim = dims[static_cast<int>(i)].dim_param();
    }
    form += (i ? "x" : "") + dim;
  }
  return "; give its shape with --input-shape " + info.name() + "=" + form +
         " with numbers for the open dims (or --input FILE)";
}

Status AddGraphInput(const onnx::ValueInfoProto& info, ImportState* state) {
  const std::string& name = info.name();
  if (!info.type().has_tensor_type()) {
    return UnsupportedError("graph input '" + name + "' is not a tensor (sequences and maps are not supported)");
  }
  TypeHint hint = TypeHintFromValueInfo(info);
  if (hint.dtype == DataType::kUndefined || hint.dtype == DataType::kString) {
    return UnsupportedError("graph input '" + name + "' has data type " +
                            OnnxDataTypeName(info.type().tensor_type().elem_type()) + ", which is not supported");
  }
  auto given = state->options.input_shapes.find(name);
  Shape shape = hint.dims;
  if (given != state->options.input_shapes.end()) {
    const Shape& fixed = given->second;
    if (hint.has_shape && fixed.size() != hint.dims.size()) {
      return InvalidArgumentError("--input-shape " + name + "=" + ShapeToString(fixed) + " has rank " +
                                  std::to_string(fixed.size()) + ", but input '" + name + "' has rank " +
                                  std::to_string(hint.dims.size()) + " (" + ShapeToString(hint.dims) + ")");
    }
    for (size_t i = 0; i < fixed.size(); ++i) {
      if (fixed[i] < 0) return InvalidArgumentError("--input-shape " + name + ": negative dimension");
      if (hint.has_shape && hint.dims[i] >= 0 && hint.dims[i] != fixed[i]) {
        return InvalidArgumentError("--input-shape " + name + "=" + ShapeToString(fixed) +
                                    " disagrees with the model's static shape " + ShapeToString(hint.dims) +
                                    " of input '" + name + "' at dimension " + std::to_string(i));
      }
    }
    shape = fixed;
  } else if (!hint.has_shape) {
    return InvalidArgumentError("graph input '" + name + "' has no shape in the model" + InputShapeHelp(info, hint));
  } else {
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] < 0) {
        return InvalidArgumentError("graph input '" + name + "' dimension " + std::to_string(i) + DimName(info, i) +
                                    " is dynamic" + InputShapeHelp(info, hint));
      }
    }
  }
  GLPOOL_RETURN_IF_ERROR(CheckTensorSize("graph input '" + name + "'", shape, hint.dtype));
  if (state->graph.tensors.count(name)) return InvalidModelError("graph input '" + name + "' is defined twice");
  Tensor tensor;
  tensor.name = name;
  tensor.dtype = hint.dtype;
  tensor.shape = shape;
  state->graph.tensors.emplace(name, tensor);
  state->graph.inputs.push_back(name);
  state->resolved.insert(name);
  return Status::Ok();
}

StatusOr<AttributeValue> ConvertAttribute(const onnx::AttributeProto& attr, ImportState* state) {
  using A = onnx::AttributeProto;
  if (!attr.ref_attr_name().empty()) {
    return UnsupportedError("attribute '" + attr.name() + "' refers to a function attribute");
  }
  switch (attr.type()) {
    case A::INT: return AttributeValue(static_cast<int64_t>(attr.i()));
    case A::FLOAT: return AttributeValue(attr.f());
    case A::STRING: return AttributeValue(attr.s());
    case A::INTS: return AttributeValue(std::vector<int64_t>(attr.ints().begin(), attr.ints().end()));
    case A::FLOATS: return AttributeValue(std::vector<float>(attr.floats().begin(), attr.floats().end()));
    case A::STRINGS: return AttributeValue(std::vector<std::string>(attr.strings().begin(), attr.strings().end()));
    case A::TENSOR: {
      StatusOr<TensorData> data = TensorDataFromProto(attr.t(), state->model_dir, state->options.external_data_root);
      if (!data.ok()) return data.status().WithContext("attribute '" + attr.name() + "'");
      return AttributeValue(std::move(data).value());
    }
    case A::GRAPH:
    case A::GRAPHS:
      return UnsupportedError("attribute '" + attr.name() +
                              "' holds a subgraph (of the control-flow ops glpool runs only If)");
    default: break;
  }
  return UnsupportedError("attribute '" + attr.name() + "' has type " + A::AttributeType_Name(attr.type()) +
                          ", which is not supported");
}

// A Constant node's value, whichever attribute holds it.
StatusOr<TensorData> ConstantNodeValue(const Node& node) {
  if (node.attributes.size() != 1) {
    return InvalidModelError("Constant needs exactly one value attribute");
  }
  const auto& [key, value] = *node.attributes.begin();
  if (key == "value") {
    if (const TensorData* data = std::get_if<TensorData>(&value)) return *data;
  } else if (key == "value_float") {
    if (const float* f = std::get_if<float>(&value)) return TensorData::FromFloats({}, {*f});
  } else if (key == "value_floats") {
    if (const auto* fs = std::get_if<std::vector<float>>(&value)) {
      return TensorData::FromFloats({static_cast<int64_t>(fs->size())}, *fs);
    }
  } else if (key == "value_int") {
    if (const int64_t* i = std::get_if<int64_t>(&value)) return TensorData::FromInt64s({}, {*i});
  } else if (key == "value_ints") {
    if (const auto* is = std::get_if<std::vector<int64_t>>(&value)) {
      return TensorData::FromInt64s({static_cast<int64_t>(is->size())}, *is);
    }
  } else {
    return UnsupportedError("Constant attribute '" + key + "' is not supported");
  }
  return InvalidModelError("Constant attribute '" + key + "' has the wrong type");
}

// Input and output counts within the op's signature, required ones
// present: every later step may then index a node's required inputs freely.
Status CheckArity(const Node& node, const OpSignature& signature) {
  const int inputs = static_cast<int>(node.inputs.size());
  const int outputs = static_cast<int>(node.outputs.size());
  if (inputs < signature.min_inputs || inputs > signature.max_inputs) {
    return InvalidModelError(NodeLabel(node) + ": has " + std::to_string(inputs) + " inputs, the op takes " +
                             std::to_string(signature.min_inputs) + " to " + std::to_string(signature.max_inputs));
  }
  if (outputs < signature.min_outputs || outputs > signature.max_outputs) {
    return InvalidModelError(NodeLabel(node) + ": has " + std::to_string(outputs) + " outputs, the op gives " +
                             std::to_string(signature.min_outputs) + " to " + std::to_string(signature.max_outputs));
  }
  const size_t formal = signature.input_names.size();
  for (int i = 0; i < inputs && formal > 0; ++i) {
    const size_t f = std::min(static_cast<size_t>(i), formal - 1);
    if (!signature.input_optional[f] && node.inputs[static_cast<size_t>(i)].empty()) {
      return InvalidModelError(NodeLabel(node) + ": required input " + std::to_string(i) + " ('" +
                               signature.input_names[f] + "') is missing");
    }
  }
  return Status::Ok();
}

const char* AttributeTypeName(int type) {
  return onnx::AttributeProto::AttributeType_IsValid(type)
             ? onnx::AttributeProto::AttributeType_Name(static_cast<onnx::AttributeProto::AttributeType>(type)).c_str()
             : "an unknown type";
}

// Attributes as the op's schema declares them: each one known to the op,
// of the declared type, given once, and every required one present. A wrong
// type must be an error: read with a default it would silently give other
// numbers (a float `perm` would transpose nothing). It also keeps ONNX's own
// shape inference, which trusts required attributes, away from malformed
// nodes (a Scan without its body graph).
Status CheckAttributes(const onnx::NodeProto& proto, const Node& node, const OpSignature& signature) {
  const auto& declared = signature.attributes;
  std::set<std::string> given;
  for (const auto& attr : proto.attribute()) {
    if (!given.insert(attr.name()).second) {
      return InvalidModelError(NodeLabel(node) + ": attribute '" + attr.name() + "' is given twice");
    }
    auto it = declared.find(attr.name());
    if (it == declared.end()) {
      return InvalidModelError(NodeLabel(node) + ": attribute '" + attr.name() + "' is not an attribute of " +
                               node.op_type + " (opset " + std::to_string(signature.since_version) + ")");
    }
    if (attr.type() != it->second.type) {
      return InvalidModelError(NodeLabel(node) + ": attribute '" + attr.name() + "' is " +
                               AttributeTypeName(attr.type()) + ", but " + node.op_type + " declares it " +
                               AttributeTypeName(it->second.type));
    }
  }
  for (const auto& [name, attribute] : declared) {
    if (attribute.required && !given.count(name)) {
      return InvalidModelError(NodeLabel(node) + ": required attribute '" + name + "' is missing");
    }
  }
  return Status::Ok();
}

StatusOr<std::shared_ptr<Graph>> ConvertSubgraph(const onnx::GraphProto& g, int depth, ImportState* state);
void MakeNodeNamesUnique(std::vector<Node>* nodes);
Status SortTopologically(ImportState* state);

// Branches read outer tensors by name; the node lists their union after the
// condition (so ordering and lifetimes see them) and every branch takes the
// same inputs, bound by position (graph.h, Node::subgraphs).
Status BindBranches(Node& node, std::map<std::string, std::shared_ptr<Graph>>& branches) {
  for (const char* key : {"then_branch", "else_branch"}) {
    if (!branches.count(key)) return InvalidModelError(NodeLabel(node) + ": required attribute '" + key + "' is missing");
  }
  std::vector<std::string> outer;
  std::set<std::string> seen;
  for (const auto& [key, branch] : branches) {
    for (const std::string& name : branch->inputs) {
      if (seen.insert(name).second) outer.push_back(name);
    }
  }
  for (auto& [key, branch] : branches) {
    for (const std::string& name : outer) {
      if (!branch->tensors.count(name)) {
        Tensor tensor;
        tensor.name = name;
        branch->tensors.emplace(name, tensor);
      }
    }
    branch->inputs = outer;
    node.subgraphs[key] = branch;
  }
  node.inputs.resize(1);
  node.inputs.insert(node.inputs.end(), outer.begin(), outer.end());
  return Status::Ok();
}

StatusOr<Node> ConvertNode(const onnx::NodeProto& proto, int index, ImportState* state, int depth) {
  Node node;
  node.op_type = proto.op_type();
  node.name = proto.name().empty() ? proto.op_type() + "_" + std::to_string(index) : proto.name();
  node.domain = IsDefaultDomain(proto.domain()) ? "" : proto.domain();
  node.inputs.assign(proto.input().begin(), proto.input().end());
  node.outputs.assign(proto.output().begin(), proto.output().end());
  if (!node.domain.empty()) {
    return UnsupportedError(NodeLabel(node) + ": domain '" + node.domain + "' is not supported");
  }
  StatusOr<OpSignature> signature = FindOpSignature(node.op_type, state->graph.opset);
  if (!signature.ok()) return signature.status().WithContext(NodeLabel(node));
  GLPOOL_RETURN_IF_ERROR(CheckArity(node, *signature));
  GLPOOL_RETURN_IF_ERROR(CheckAttributes(proto, node, *signature));
  std::map<std::string, std::shared_ptr<Graph>> branches;
  for (const auto& attr : proto.attribute()) {
    if (attr.type() == onnx::AttributeProto::GRAPH && node.op_type == "If" && attr.ref_attr_name().empty()) {
      if (depth >= kMaxSubgraphDepth) {
        return UnsupportedError(NodeLabel(node) + ": If nested more than " + std::to_string(kMaxSubgraphDepth) +
                                " deep");
      }
      StatusOr<std::shared_ptr<Graph>> branch = ConvertSubgraph(attr.g(), depth + 1, state);
      if (!branch.ok()) return branch.status().WithContext(NodeLabel(node) + " " + attr.name());
      branches[attr.name()] = std::move(branch).value();
      continue;
    }
    StatusOr<AttributeValue> value = ConvertAttribute(attr, state);
    if (!value.ok()) return value.status().WithContext(NodeLabel(node));
    node.attributes[attr.name()] = std::move(value).value();
  }
  if (node.op_type == "If") GLPOOL_RETURN_IF_ERROR(BindBranches(node, branches));
  return node;
}

// A branch as a graph of its own: its initializers and Constant nodes are
// constants, the names it reads but does not define are its inputs (outer
// tensors), its outputs are the branch's. Shapes stay unknown: the If
// resolves them where the outer shapes are known (if_resolution.cc).
StatusOr<std::shared_ptr<Graph>> ConvertSubgraph(const onnx::GraphProto& g, int depth, ImportState* state) {
  ImportState sub;
  sub.label = state->label;
  sub.model_dir = state->model_dir;
  sub.options = state->options;
  sub.graph.name = g.name();
  sub.graph.opset = state->graph.opset;
  if (g.sparse_initializer_size() > 0) return UnsupportedError("a sparse initializer is not supported");
  for (const auto& init : g.initializer()) {
    if (init.name().empty()) return InvalidModelError("an initializer has no name");
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, InitializerData(init, &sub));
    GLPOOL_RETURN_IF_ERROR(AddConstant(init.name(), std::move(data), &sub.graph));
  }
  std::vector<Node> nodes;
  for (int i = 0; i < g.node_size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(Node node, ConvertNode(g.node(i), i, &sub, depth));
    if (node.op_type == "Constant") {
      if (node.outputs.size() != 1 || node.outputs[0].empty()) {
        return InvalidModelError(NodeLabel(node) + ": Constant needs exactly one output");
      }
      StatusOr<TensorData> value = ConstantNodeValue(node);
      if (!value.ok()) return value.status().WithContext(NodeLabel(node));
      GLPOOL_TRY_CONTEXT(AddConstant(node.outputs[0], std::move(value).value(), &sub.graph), NodeLabel(node));
      continue;
    }
    nodes.push_back(std::move(node));
  }
  std::set<std::string> defined;
  for (const auto& [name, tensor] : sub.graph.tensors) defined.insert(name);
  for (const Node& node : nodes) defined.insert(node.outputs.begin(), node.outputs.end());
  std::set<std::string> seen;
  auto read = [&](const std::string& name) {
    if (name.empty() || defined.count(name) || !seen.insert(name).second) return;
    Tensor tensor;
    tensor.name = name;
    sub.graph.tensors.emplace(name, tensor);
    sub.graph.inputs.push_back(name);
  };
  for (const Node& node : nodes) {
    for (const std::string& name : node.inputs) read(name);
  }
  for (const auto& output : g.output()) read(output.name());
  MakeNodeNamesUnique(&nodes);
  sub.graph.nodes = std::move(nodes);
  GLPOOL_RETURN_IF_ERROR(SortTopologically(&sub));
  if (g.output_size() == 0) return InvalidModelError("the branch has no outputs");
  for (const auto& output : g.output()) {
    if (output.name().empty()) return InvalidModelError("a branch output has no name");
    sub.graph.outputs.push_back(output.name());
  }
  return std::make_shared<Graph>(std::move(sub.graph));
}

// Kahn's algorithm, always taking the earliest ready node so a sorted model
// keeps its stored order.
Status SortTopologically(ImportState* state) {
  std::vector<Node>& nodes = state->graph.nodes;
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const std::string& out : nodes[i].outputs) {
      if (out.empty()) continue;
      if (state->graph.tensors.count(out) || producer.count(out)) {
        return InvalidModelError(NodeLabel(nodes[i]) + ": output '" + out + "' is already defined elsewhere");
      }
      producer[out] = i;
    }
  }
  std::vector<std::vector<size_t>> users(nodes.size());
  std::vector<size_t> pending(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const std::string& in : nodes[i].inputs) {
      if (in.empty() || state->graph.tensors.count(in)) continue;
      auto it = producer.find(in);
      if (it == producer.end()) {
        return InvalidModelError(NodeLabel(nodes[i]) + ": input '" + in +
                                 "' is not produced by any node, initializer or graph input");
      }
      users[it->second].push_back(i);
      ++pending[i];
    }
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  std::vector<Node> sorted;
  sorted.reserve(nodes.size());
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    for (size_t user : users[i]) {
      if (--pending[user] == 0) ready.push(user);
    }
    sorted.push_back(std::move(nodes[i]));
  }
  if (sorted.size() != nodes.size()) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (pending[i] != 0) return InvalidModelError(NodeLabel(nodes[i]) + ": is part of a cycle");
    }
  }
  nodes = std::move(sorted);
  for (const Node& node : nodes) {
    for (const std::string& out : node.outputs) {
      if (out.empty()) continue;
      Tensor tensor;
      tensor.name = out;
      state->graph.tensors.emplace(out, tensor);
    }
  }
  return Status::Ok();
}

void MakeNodeNamesUnique(std::vector<Node>* nodes) {
  std::map<std::string, int> seen;
  for (Node& node : *nodes) {
    int& count = seen[node.name];
    if (count++ > 0) {
      std::string candidate;
      do {
        candidate = node.name + "_" + std::to_string(count++);
      } while (seen.count(candidate));
      node.name = candidate;
      seen[candidate] = 1;
    }
  }
}

}  // namespace

Status ConvertModel(const onnx::ModelProto& model, ImportState* state) {
  if (!model.has_graph()) return InvalidModelError("the model has no graph");
  GLPOOL_RETURN_IF_ERROR(ReadOpset(model, &state->graph));
  for (const auto& opset : model.opset_import()) {
    (void)opset;  // Other domains only matter if a node uses them; checked per node.
  }
  const onnx::GraphProto& g = model.graph();
  state->graph.name = g.name();
  if (g.sparse_initializer_size() > 0) {
    return UnsupportedError("sparse initializer '" + g.sparse_initializer(0).values().name() + "' is not supported");
  }
  for (const auto& init : g.initializer()) {
    if (init.name().empty()) return InvalidModelError("an initializer has no name");
    GLPOOL_ASSIGN_OR_RETURN(TensorData data, InitializerData(init, state));  // messages name the tensor
    GLPOOL_RETURN_IF_ERROR(AddConstant(init.name(), std::move(data), &state->graph));
    state->resolved.insert(init.name());
  }
  for (const auto& [name, shape] : state->options.input_shapes) {
    bool is_input = false;
    std::string names;
    for (const auto& input : g.input()) {
      if (state->graph.tensors.count(input.name()) && state->graph.tensors[input.name()].is_constant) continue;
      is_input = is_input || input.name() == name;
      names += (names.empty() ? "" : ", ") + input.name();
    }
    if (!is_input) {
      return InvalidArgumentError("--input-shape names '" + name + "', which is not a graph input (inputs: " +
                                  names + ")");
    }
  }
  for (const auto& input : g.input()) {
    const Tensor* existing = state->graph.FindTensor(input.name());
    if (existing && existing->is_constant) continue;  // IR < 4 lists initializers as inputs too
    GLPOOL_RETURN_IF_ERROR(AddGraphInput(input, state));
  }
  std::vector<Node> nodes;
  for (int i = 0; i < g.node_size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(Node node, ConvertNode(g.node(i), i, state, 0));
    if (node.op_type == "Constant") {
      if (node.outputs.size() != 1 || node.outputs[0].empty()) {
        return InvalidModelError(NodeLabel(node) + ": Constant needs exactly one output");
      }
      StatusOr<TensorData> value = ConstantNodeValue(node);
      if (!value.ok()) return value.status().WithContext(NodeLabel(node));
      GLPOOL_TRY_CONTEXT(AddConstant(node.outputs[0], std::move(value).value(), &state->graph), NodeLabel(node));
      state->resolved.insert(node.outputs[0]);
      continue;
    }
    nodes.push_back(std::move(node));
  }
  MakeNodeNamesUnique(&nodes);
  state->graph.nodes = std::move(nodes);
  GLPOOL_RETURN_IF_ERROR(SortTopologically(state));
  for (const auto& output : g.output()) {
    if (!state->graph.tensors.count(output.name())) {
      return InvalidModelError("graph output '" + output.name() + "' is not produced by any node");
    }
    state->graph.outputs.push_back(output.name());
  }
  if (state->graph.outputs.empty()) return InvalidModelError("the graph has no outputs");
  return Status::Ok();
}

}  // namespace glpool
