#include "gpu_backend/cpu_reference/executor.h"

#include <set>

#include "gpu_backend/cpu_reference/activation.h"
#include "gpu_backend/graph/float16.h"
#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/cpu_reference/value.h"

namespace glpool {
namespace cpu_reference {
namespace {

std::string NodeLabel(const Node& node) {
  return "node '" + node.name + "' (" + node.op_type + ")";
}

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

StatusOr<const OpKernelInfo*> KernelFor(const Node& node, int64_t opset) {
  if (!IsDefaultDomain(node.domain)) {
    return UnsupportedError("op " + node.domain + "." + node.op_type +
                            " is outside the default ONNX domain");
  }
  if (opset > kMaxCheckedOpset) {
    return UnsupportedError("opset " + std::to_string(opset) + " is newer than the CPU reference's " +
                            std::to_string(kMaxCheckedOpset));
  }
  const OpKernelInfo* info = FindKernel(node.op_type, opset);
  if (!info) return UnsupportedError(UnsupportedReason(node.op_type, opset));
  return info;
}

// float16 values are already halves (Value keeps them in `floats`); a
// kernel that computes in float32 sees them as float32, the ONNX spec's
// float16 semantics with float32 accumulation. Returns the inputs to pass
// and whether any float input was float16.
bool WidenHalfInputs(const std::vector<const Value*>& inputs, std::vector<Value>& widened,
                     std::vector<const Value*>& args) {
  args = inputs;
  widened.clear();
  widened.reserve(inputs.size());  // args point into it: no reallocation
  bool half = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i] || inputs[i]->dtype != DataType::kFloat16) continue;
    widened.push_back(*inputs[i]);
    widened.back().dtype = DataType::kFloat32;
    args[i] = &widened.back();
    half = true;
  }
  return half;
}

// A float16 op's results: each float32 output rounded to the nearest half,
// as a float16 runtime stores them between ops. Where the graph records an
// output's dtype (`expected[i]`, kUndefined where unknown) it decides:
// some outputs stay float32 by the op's type constraints (LayerNorm's Mean
// with stash_type 1, BatchNorm's running statistics of float32 inputs).
// Otherwise ops that choose their output type by attribute ("dtype":
// EyeLike, RandomNormalLike...) keep it, and the rest become float16.
void NarrowToHalf(const Node& node, const std::vector<DataType>& expected, std::vector<Value>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    Value& value = outputs[i];
    if (value.dtype != DataType::kFloat32) continue;
    const DataType want = i < expected.size() ? expected[i] : DataType::kUndefined;
    if (want == DataType::kFloat32 || (want == DataType::kUndefined && node.HasAttribute("dtype"))) continue;
    value.dtype = DataType::kFloat16;
    for (float& v : value.floats) v = HalfToFloat(FloatToHalf(v));
  }
}

// The input `node`'s kNearestUpsampledInputAttr names, upsampled: element
// (n, c, h, w) is the input's (n, c, h / fy, w / fx). Sets which input.
StatusOr<Value> NearestUpsampledInput(const Node& node, const std::vector<const Value*>& args, size_t* input) {
  std::vector<Shape> shapes;
  for (const Value* v : args) shapes.push_back(v ? v->shape : Shape{});
  GLPOOL_ASSIGN_OR_RETURN(const NearestUpsample up, ReadNearestUpsample(node, shapes));
  const Value* in = args[up.input];
  if (in == nullptr || in->dtype != DataType::kFloat32) {
    return InvalidModelError("input " + std::to_string(up.input) + " is nearest-upsampled but not float32");
  }
  const int64_t h = in->shape[2], w = in->shape[3];
  Value out = MakeFloatValue(up.upsampled, {});
  out.floats.reserve(static_cast<size_t>(out.size()));
  for (int64_t plane = 0; plane < in->shape[0] * in->shape[1]; ++plane) {
    for (int64_t y = 0; y < up.upsampled[2]; ++y) {
      for (int64_t x = 0; x < up.upsampled[3]; ++x) {
        out.floats.push_back(in->floats[static_cast<size_t>((plane * h + y / up.fy) * w + x / up.fx)]);
      }
    }
  }
  *input = up.input;
  return out;
}

// Runs the kernel on values and applies a fused activation to output 0.
// `expected`: the outputs' dtypes where the caller knows them (NarrowToHalf).
Status RunKernel(const OpKernelInfo& info, const Node& node, int64_t opset,
                 const std::vector<const Value*>& inputs, const std::vector<DataType>& expected,
                 std::vector<Value>& outputs) {
  std::vector<Value> widened;
  std::vector<const Value*> args = inputs;
  bool half = false;
  if (!info.accepts_wide_floats) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i] && inputs[i]->dtype == DataType::kFloat64) {
        const std::string name = i < node.inputs.size() ? " ('" + node.inputs[i] + "')" : "";
        return UnsupportedError("input " + std::to_string(i) + name +
                                " is float64; the CPU reference computes in float32 (only Cast converts)");
      }
    }
    half = WidenHalfInputs(inputs, widened, args);
  }
  // Reshapes folded into the node (graph.h kReadInputAsAttr,
  // kWriteOutputAsAttr) relabel input 0's and output 0's shapes.
  Value read_as;
  if (node.HasAttribute(kReadInputAsAttr) && !args.empty() && args[0]) {
    read_as = *args[0];
    read_as.shape = node.GetInts(kReadInputAsAttr);
    if (ElementCount(read_as.shape) != args[0]->size()) {
      return InvalidModelError("input 0 " + ShapeToString(args[0]->shape) + " cannot be read as " +
                               ShapeToString(read_as.shape));
    }
    args[0] = &read_as;
  }
  // A nearest upsample folded into the node (graph.h
  // kNearestUpsampledInputAttr) is computed here, as the Resize did.
  Value upsampled;
  if (node.HasAttribute(kNearestUpsampledInputAttr)) {
    size_t input = 0;
    GLPOOL_ASSIGN_OR_RETURN(upsampled, NearestUpsampledInput(node, args, &input));
    args[input] = &upsampled;
  }
  KernelContext ctx{node, opset, args};
  outputs.assign(node.outputs.size(), Value{});
  GLPOOL_RETURN_IF_ERROR(info.run(ctx, outputs));
  if (node.HasAttribute(kWriteOutputAsAttr) && !outputs.empty()) {
    const Shape written_as = node.GetInts(kWriteOutputAsAttr);
    if (ElementCount(written_as) != outputs[0].size()) {
      return InvalidModelError("output 0 " + ShapeToString(outputs[0].shape) + " cannot be written as " +
                               ShapeToString(written_as));
    }
    outputs[0].shape = written_as;
  }
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (!node.outputs[i].empty() && outputs[i].dtype == DataType::kUndefined) {
      return UnsupportedError("output " + std::to_string(i) + " ('" + node.outputs[i] +
                              "') is not produced by the CPU reference");
    }
  }
  bool fused = false;
  Activation activation;
  GLPOOL_RETURN_IF_ERROR(ReadFusedActivation(node, &fused, &activation));
  if (fused) {
    if (outputs.empty() || outputs[0].dtype != DataType::kFloat32) {
      return InvalidModelError("a fused activation needs a float32 or float16 output 0");
    }
    ApplyActivation(activation, outputs[0].floats);
  }
  if (node.HasAttribute(kFusedOutputScaleAttr) || node.HasAttribute(kFusedOutputShiftAttr)) {
    if (outputs.empty() || outputs[0].dtype != DataType::kFloat32) {
      return InvalidModelError("a fused output scale and shift need a float32 or float16 output 0");
    }
    const float scale = node.GetFloat(kFusedOutputScaleAttr, 1.0f);
    const float shift = node.GetFloat(kFusedOutputShiftAttr, 0.0f);
    for (float& v : outputs[0].floats) v = v * scale + shift;
  }
  if (half) NarrowToHalf(node, expected, outputs);
  return Status::Ok();
}

Status CheckAgainstGraph(const Graph& graph, const std::string& name, const Value& value) {
  const Tensor* tensor = graph.FindTensor(name);
  if (!tensor || tensor->dtype == DataType::kUndefined) return Status::Ok();
  if (tensor->dtype != value.dtype || tensor->shape != value.shape) {
    return InternalError("output '" + name + "' is " + DescribeValue(value) + " but the graph says " +
                         DataTypeName(tensor->dtype) + " " + ShapeToString(tensor->shape));
  }
  return Status::Ok();
}

Status CheckInputs(const Graph& graph, const std::map<std::string, TensorData>& inputs) {
  std::set<std::string> expected(graph.inputs.begin(), graph.inputs.end());
  for (const auto& [name, data] : inputs) {
    if (!expected.count(name)) {
      std::string known;
      for (const std::string& n : graph.inputs) known += (known.empty() ? "'" : ", '") + n + "'";
      return InvalidArgumentError("'" + name + "' is not an input of the graph (inputs: " +
                                  (known.empty() ? "none" : known) + ")");
    }
  }
  for (const std::string& name : graph.inputs) {
    const Tensor* tensor = graph.FindTensor(name);
    if (!tensor) return InvalidModelError("graph input '" + name + "' has no tensor entry");
    const std::string expected_text =
        std::string(DataTypeName(tensor->dtype)) + " " + ShapeToString(tensor->shape);
    auto it = inputs.find(name);
    if (it == inputs.end()) {
      return InvalidArgumentError("missing input '" + name + "' (" + expected_text + ")");
    }
    const TensorData& data = it->second;
    if (data.dtype != tensor->dtype || data.shape != tensor->shape) {
      return InvalidArgumentError("input '" + name + "' is " + DataTypeName(data.dtype) + " " +
                                  ShapeToString(data.shape) + ", the graph expects " +
                                  expected_text);
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckGraphSupported(const Graph& graph) {
  std::string problems;
  std::set<std::string> reported;
  for (const Node& node : graph.nodes) {
    StatusOr<const OpKernelInfo*> info = KernelFor(node, graph.opset);
    if (info.ok() || !reported.insert(node.op_type).second) continue;
    problems += (problems.empty() ? "" : "; ") + info.status().message() + " (" +
                NodeLabel(node) + ")";
  }
  if (problems.empty()) return Status::Ok();
  return UnsupportedError(problems);
}

StatusOr<std::map<std::string, TensorData>> RunGraph(
    const Graph& graph, const std::map<std::string, TensorData>& inputs,
    const RunOptions& options) {
  GLPOOL_RETURN_IF_ERROR(CheckGraphSupported(graph));
  GLPOOL_RETURN_IF_ERROR(CheckInputs(graph, inputs));

  // The last node reading each tensor, so values die as early as they can.
  std::map<std::string, size_t> last_use;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    for (const std::string& name : graph.nodes[i].inputs) last_use[name] = i;
  }
  const std::set<std::string> graph_outputs(graph.outputs.begin(), graph.outputs.end());

  std::map<std::string, Value> values;
  for (const std::string& name : graph.inputs) {
    StatusOr<Value> value = ValueFromTensorData(inputs.at(name));
    if (!value.ok()) return value.status().WithContext("input '" + name + "'");
    values[name] = std::move(value).value();
  }
  // A constant becomes a Value when first read (most are read once).
  auto lookup = [&](const std::string& name) -> StatusOr<const Value*> {
    auto it = values.find(name);
    if (it != values.end()) return &it->second;
    const Tensor* tensor = graph.FindTensor(name);
    if (!tensor || !tensor->is_constant) {
      return InvalidModelError("'" + name + "' is read before any node produces it");
    }
    StatusOr<Value> value = ValueFromTensorData(tensor->data);
    if (!value.ok()) return value.status().WithContext("constant '" + name + "'");
    return &(values[name] = std::move(value).value());
  };

  for (size_t index = 0; index < graph.nodes.size(); ++index) {
    const Node& node = graph.nodes[index];
    const std::string label = NodeLabel(node);
    std::vector<const Value*> node_inputs;
    for (const std::string& name : node.inputs) {
      if (name.empty()) {
        node_inputs.push_back(nullptr);
        continue;
      }
      StatusOr<const Value*> value = lookup(name);
      if (!value.ok()) return value.status().WithContext(label);
      node_inputs.push_back(*value);
    }
    std::vector<Value> outputs;
    const OpKernelInfo* info = FindKernel(node.op_type, graph.opset);
    std::vector<DataType> expected;
    for (const std::string& name : node.outputs) {
      const Tensor* tensor = name.empty() ? nullptr : graph.FindTensor(name);
      expected.push_back(tensor ? tensor->dtype : DataType::kUndefined);
    }
    GLPOOL_TRY_CONTEXT(RunKernel(*info, node, graph.opset, node_inputs, expected, outputs), label);
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (node.outputs[i].empty()) continue;
      if (options.check_graph_shapes) {
        GLPOOL_TRY_CONTEXT(CheckAgainstGraph(graph, node.outputs[i], outputs[i]), label);
      }
      values[node.outputs[i]] = std::move(outputs[i]);
    }
    if (options.keep_all_tensors) continue;
    for (const std::string& name : node.inputs) {
      auto use = last_use.find(name);
      if (!name.empty() && use != last_use.end() && use->second == index && !graph_outputs.count(name)) {
        values.erase(name);
      }
    }
  }

  std::map<std::string, TensorData> results;
  for (const std::string& name : graph.outputs) {
    StatusOr<const Value*> value = lookup(name);
    if (!value.ok()) return value.status().WithContext("graph output '" + name + "'");
    results[name] = ValueToTensorData(**value);
  }
  if (options.keep_all_tensors) {
    for (const auto& [name, value] : values) results[name] = ValueToTensorData(value);
  }
  return results;
}

StatusOr<std::vector<TensorData>> RunNode(const Node& node, int64_t opset,
                                          const std::vector<const TensorData*>& inputs,
                                          const std::vector<DataType>& output_dtypes) {
  const std::string label = NodeLabel(node);
  StatusOr<const OpKernelInfo*> info = KernelFor(node, opset);
  if (!info.ok()) return info.status().WithContext(label);
  std::vector<Value> input_values(inputs.size());
  std::vector<const Value*> pointers(inputs.size(), nullptr);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) continue;
    StatusOr<Value> value = ValueFromTensorData(*inputs[i]);
    if (!value.ok()) return value.status().WithContext(label + " input " + std::to_string(i));
    input_values[i] = std::move(value).value();
    pointers[i] = &input_values[i];
  }
  std::vector<Value> outputs;
  GLPOOL_TRY_CONTEXT(RunKernel(**info, node, opset, pointers, output_dtypes, outputs), label);
  std::vector<TensorData> results;
  for (const Value& value : outputs) results.push_back(ValueToTensorData(value));
  return results;
}

}  // namespace cpu_reference
}  // namespace glpool
