// Broadcasting elementwise ops over one to seven inputs
// (shaders/elementwise_binary.comp): arithmetic (Add, Sub, Mul, Div, Pow,
// Mod), the variadic Sum, Mean, Max and Min, comparisons, logic, and Where.
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/broadcast_map.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

constexpr size_t kMaxInputs = 7;  // + out0: 8 bindings, as concat

// The shader's OP code and how many inputs the op takes (0: one or more).
struct BroadcastOp {
  int code;
  size_t inputs;
};

const std::map<std::string, BroadcastOp>& BroadcastOps() {
  static const std::map<std::string, BroadcastOp> ops = {
      {"Add", {0, 2}},
      {"Sum", {0, 0}},
      {"Mean", {0, 0}},
      {"Sub", {1, 2}},
      {"Mul", {2, 2}},
      {"Div", {3, 2}},
      {"Pow", {4, 2}},
      {"Mod", {5, 2}},
      {"Max", {6, 0}},
      {"Min", {7, 0}},
      {"Equal", {8, 2}},
      {"Less", {9, 2}},
      {"Greater", {10, 2}},
      {"LessOrEqual", {11, 2}},
      {"GreaterOrEqual", {12, 2}},
      {"And", {13, 2}},
      {"Or", {14, 2}},
      {"Xor", {15, 2}},
      {"Where", {16, 3}},
  };
  return ops;
}

bool IsInteger(DataType dtype) {
  switch (dtype) {
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64: return true;
    default: return false;
  }
}

// Input `index`'s shape in numpy terms. Before opset 7, B broadcast only
// with the "broadcast" attribute, aligned at "axis" rather than at the
// trailing dims: B [3, 4] at axis 1 of A [2, 3, 4, 5] reads as [3, 4, 1].
Shape OperandShape(const Graph& graph, const Node& node, size_t index, const Tensor& tensor, const Tensor& first) {
  if (graph.opset >= 7 || index != 1 || node.GetInt("broadcast", 0) == 0 || !node.HasAttribute("axis")) {
    return tensor.shape;
  }
  StatusOr<int64_t> axis = NormalizeAxis(node.GetInt("axis", 0), first.shape.size());
  if (!axis.ok() || *axis + tensor.shape.size() > first.shape.size()) return tensor.shape;  // MapBroadcast says why
  Shape aligned = tensor.shape;
  aligned.resize(first.shape.size() - *axis, 1);
  return aligned;
}

// How the shader reads an input (IN_SAME in shaders/elementwise_binary.comp):
// 1 the output's layout; 2 a texel of the output's channels, broadcast along
// the other axes; 3 one value for a texel's 4 lanes; 0 lane by lane (4, a
// nearest upsample, is set by the caller).
int64_t ReadMode(const BroadcastMap& map, const Shape& input, const Shape& output) {
  if (map.same) return 1;
  const std::array<int, 4>& a = map.axes;
  if (std::find(a.begin(), a.end(), 1) == a.end()) return 3;  // nothing varies along the output's channels
  const bool own_axes = (a[0] == 0 || a[0] == -1) && a[1] == 1 && (a[2] == 2 || a[2] == -1) && (a[3] == 3 || a[3] == -1);
  return own_axes && LayoutOf(input).c == LayoutOf(output).c ? 2 : 0;
}

// A nearest upsample folded into the node (graph.h
// kNearestUpsampledInputAttr), checked against the output's shape; nullopt
// when the node has none.
StatusOr<std::optional<NearestUpsample>> ReadUpsampledInput(const Graph& graph, const Node& node, const Tensor& out) {
  if (!node.HasAttribute(kNearestUpsampledInputAttr)) return std::optional<NearestUpsample>();
  std::vector<Shape> shapes;
  for (const std::string& name : node.inputs) {
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, name));
    shapes.push_back(in->shape);
  }
  GLPOOL_ASSIGN_OR_RETURN(const NearestUpsample up, ReadNearestUpsample(node, shapes));
  if (up.upsampled != out.shape) {
    return InvalidModelError("input " + std::to_string(up.input) + " " + ShapeToString(shapes[up.input]) +
                             " upsampled is " + ShapeToString(up.upsampled) + ", not the output's " +
                             ShapeToString(out.shape));
  }
  return std::optional<NearestUpsample>(up);
}

}  // namespace

StatusOr<KernelPlan> BuildElementwiseBinary(const Graph& graph, const Node& node, const KernelLimits&) {
  const BroadcastOp& op = BroadcastOps().at(node.op_type);
  if (node.outputs.size() != 1) return InvalidModelError("needs one output");
  if (op.inputs != 0 && node.inputs.size() != op.inputs) {
    return InvalidModelError("needs " + std::to_string(op.inputs) + " inputs, has " +
                             std::to_string(node.inputs.size()));
  }
  if (node.inputs.empty()) return InvalidModelError("needs at least one input");
  if (node.inputs.size() > kMaxInputs) {
    return UnsupportedError(std::to_string(node.inputs.size()) + " inputs; the GPU kernel reads at most " +
                            std::to_string(kMaxInputs));
  }
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(out->shape));
  if (node.op_type == "Mod" && !IsInteger(out->dtype) && node.GetInt("fmod", 0) == 0) {
    return InvalidModelError("floating-point Mod needs fmod=1");
  }
  KernelPlan plan;
  plan.shader = "elementwise_binary";
  plan.outputs = {out->name};
  std::vector<int64_t> same;
  std::string maps;
  const Tensor* first = nullptr;
  GLPOOL_ASSIGN_OR_RETURN(const std::optional<NearestUpsample> upsampled, ReadUpsampledInput(graph, node, *out));
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[i]));
    GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
    if (!first) first = in;
    const bool up = upsampled && upsampled->input == i;
    const Shape shape = up ? out->shape : OperandShape(graph, node, i, *in, *first);
    GLPOOL_ASSIGN_OR_RETURN(BroadcastMap map, MapBroadcast(shape, out->shape));
    plan.inputs.push_back(in->name);
    same.push_back(up ? 4 : ReadMode(map, shape, out->shape));
    maps += (maps.empty() ? "" : ", ") + map.Glsl();
  }
  if (upsampled) {
    plan.defines.emplace_back("UP_Y", std::to_string(upsampled->fy));
    plan.defines.emplace_back("UP_X", std::to_string(upsampled->fx));
  }
  for (size_t i = node.inputs.size(); i < kMaxInputs; ++i) maps += ", ivec4(-1)";
  plan.defines.emplace_back("OP", std::to_string(op.code));
  plan.defines.emplace_back("NUM_INPUTS", std::to_string(node.inputs.size()));
  plan.defines.emplace_back("IN_SAME", GlslIntArray(same, kMaxInputs));
  plan.defines.emplace_back("IN_MAPS", "ivec4[" + std::to_string(kMaxInputs) + "](" + maps + ")");
  // Integer results must stay whole numbers: Div truncates, Pow and Mod
  // land exactly on integers.
  plan.defines.emplace_back("INT_OUT", IsInteger(out->dtype) ? "1" : "0");
  plan.defines.emplace_back("FMOD", node.GetInt("fmod", 0) != 0 ? "1" : "0");
  // Mean divides the sum, as the CPU reference does (not a multiply by 1/n).
  const double divisor = node.op_type == "Mean" ? static_cast<double>(node.inputs.size()) : 1.0;
  plan.defines.emplace_back("DIVISOR", GlslFloat(divisor));
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
