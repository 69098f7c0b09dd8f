// One-input elementwise ops, PRelu, Not, and the dtype conversions Cast and
// CastLike (shaders/elementwise_unary.comp). Parameters (alpha, constant
// Clip bounds, Cast's target type...) are compile-time defines.
#include <cmath>
#include <map>
#include <string>

#include "gpu_backend/kernels/broadcast_map.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

// Op code (the shader's OP) and its P0/P1 parameter attributes with defaults.
struct UnaryOp {
  int code;
  const char* p0_attr;
  float p0;
  const char* p1_attr;
  float p1;
};

const std::map<std::string, UnaryOp>& UnaryOps() {
  static const std::map<std::string, UnaryOp> ops = {
      {"Relu", {0, nullptr, 0, nullptr, 0}},
      {"Clip", {1, "min", -INFINITY, "max", INFINITY}},
      {"Sigmoid", {2, nullptr, 0, nullptr, 0}},
      {"Tanh", {3, nullptr, 0, nullptr, 0}},
      {"HardSigmoid", {4, "alpha", 0.2f, "beta", 0.5f}},
      {"HardSwish", {5, nullptr, 0, nullptr, 0}},
      {"LeakyRelu", {6, "alpha", 0.01f, nullptr, 0}},
      {"PRelu", {7, nullptr, 0, nullptr, 0}},
      {"Elu", {8, "alpha", 1.0f, nullptr, 0}},
      {"Sqrt", {9, nullptr, 0, nullptr, 0}},
      {"Exp", {10, nullptr, 0, nullptr, 0}},
      {"Erf", {11, nullptr, 0, nullptr, 0}},
      {"Neg", {12, nullptr, 0, nullptr, 0}},
      {"Abs", {13, nullptr, 0, nullptr, 0}},
      {"Reciprocal", {14, nullptr, 0, nullptr, 0}},
      {"Log", {15, nullptr, 0, nullptr, 0}},
      {"Floor", {16, nullptr, 0, nullptr, 0}},
      {"Ceil", {17, nullptr, 0, nullptr, 0}},
      {"Round", {18, nullptr, 0, nullptr, 0}},
      {"Sign", {19, nullptr, 0, nullptr, 0}},
      {"Sin", {20, nullptr, 0, nullptr, 0}},
      {"Cos", {21, nullptr, 0, nullptr, 0}},
      {"Softplus", {22, nullptr, 0, nullptr, 0}},
      {"Softsign", {23, nullptr, 0, nullptr, 0}},
      {"Selu", {24, "alpha", 1.67326319217681884765625f, "gamma", 1.05070102214813232421875f}},
      {"Celu", {25, "alpha", 1.0f, nullptr, 0}},
      {"ThresholdedRelu", {26, "alpha", 1.0f, nullptr, 0}},
      {"Tan", {27, nullptr, 0, nullptr, 0}},
      {"Asin", {28, nullptr, 0, nullptr, 0}},
      {"Acos", {29, nullptr, 0, nullptr, 0}},
      {"Atan", {30, nullptr, 0, nullptr, 0}},
      {"Sinh", {31, nullptr, 0, nullptr, 0}},
      {"Cosh", {32, nullptr, 0, nullptr, 0}},
      {"Asinh", {33, nullptr, 0, nullptr, 0}},
      {"Acosh", {34, nullptr, 0, nullptr, 0}},
      {"Atanh", {35, nullptr, 0, nullptr, 0}},
      {"Not", {36, nullptr, 0, nullptr, 0}},
      {"Cast", {37, nullptr, 0, nullptr, 0}},
      {"CastLike", {37, nullptr, 0, nullptr, 0}},
      {"Gelu", {38, nullptr, 0, nullptr, 0}},  // 39 with approximate = "tanh"
      {"Mish", {40, nullptr, 0, nullptr, 0}},
  };
  return ops;
}

// A Clip bound: an attribute before opset 11, an optional input from then
// on. A constant becomes the define `value`; a run-time scalar is bound as
// the kernel's next optional input, its role number going to `role_define`.
Status ClipBound(const Graph& graph, const Node& node, size_t input, const char* attr, float fallback,
                 const char* role_define, float& value, KernelPlan& plan) {
  value = fallback;
  if (graph.opset < 11) {
    value = node.GetFloat(attr, fallback);
    return Status::Ok();
  }
  if (!HasInput(node, input)) return Status::Ok();
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* bound, RequireTensor(graph, node.inputs[input]));
  if (ElementCount(bound->shape) != 1) return InvalidModelError("Clip bounds must be scalars");
  if (bound->is_constant) {
    value = bound->data.ToFloats()[0];
    return Status::Ok();
  }
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*bound));
  plan.inputs.push_back(bound->name);
  plan.defines.emplace_back(role_define, std::to_string(plan.inputs.size() - 1));
  return Status::Ok();
}

// The shader's CAST_TO code for a Cast's output type. float64 travels as
// float32: a graph input arrives rounded to float32 (exactly Cast's
// double -> float) and a float64 graph output is read back from float32
// (exactly float -> double), so Cast accepts float64 on its own tensors.
StatusOr<int> CastCode(const Tensor& out) {
  switch (out.dtype) {
    case DataType::kFloat32:
    case DataType::kFloat64: return 0;
    case DataType::kFloat16: return 1;
    case DataType::kBool: return 2;
    case DataType::kInt8: return 3;
    case DataType::kUint8: return 4;
    case DataType::kInt16: return 5;
    case DataType::kInt32:
    case DataType::kInt64: return 6;
    default: break;
  }
  return UnsupportedError("casting to " + std::string(DataTypeName(out.dtype)) + " ('" + out.name +
                          "') has no GPU kernel");
}

bool IsCast(const Node& node) { return node.op_type == "Cast" || node.op_type == "CastLike"; }

}  // namespace

StatusOr<KernelPlan> BuildElementwiseUnary(const Graph& graph, const Node& node, const KernelLimits&) {
  auto op = UnaryOps().find(node.op_type);
  if (op == UnaryOps().end()) return InternalError("not a unary op");
  if (node.inputs.empty() || node.outputs.size() != 1) return InvalidModelError("needs an input and one output");
  // Dtypes (float64 only at a Cast) are checked by the executor on every
  // tensor a plan binds.
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, node.outputs[0]));
  if (in->shape != out->shape) return InvalidModelError("output shape differs from the input's");
  KernelPlan plan;
  plan.shader = "elementwise_unary";
  plan.inputs = {in->name};
  plan.outputs = {out->name};
  float p0 = op->second.p0_attr ? node.GetFloat(op->second.p0_attr, op->second.p0) : 0.0f;
  float p1 = op->second.p1_attr ? node.GetFloat(op->second.p1_attr, op->second.p1) : 0.0f;
  if (node.op_type == "Clip") {
    GLPOOL_RETURN_IF_ERROR(ClipBound(graph, node, 1, "min", -INFINITY, "CLIP_MIN_ROLE", p0, plan));
    GLPOOL_RETURN_IF_ERROR(ClipBound(graph, node, 2, "max", INFINITY, "CLIP_MAX_ROLE", p1, plan));
  }
  int code = op->second.code;
  if (node.op_type == "Gelu") {
    const std::string approximate = node.GetString("approximate", "none");
    if (approximate != "none" && approximate != "tanh") {
      return InvalidModelError("Gelu approximate must be 'none' or 'tanh', is '" + approximate + "'");
    }
    if (approximate == "tanh") code = 39;
  }
  plan.defines.emplace_back("OP", std::to_string(code));
  plan.defines.emplace_back("P0", GlslFloat(p0));
  plan.defines.emplace_back("P1", GlslFloat(p1));
  if (IsCast(node)) {
    // CastLike's second input gives only the type, which its output has.
    GLPOOL_ASSIGN_OR_RETURN(int cast_to, CastCode(*out));
    plan.defines.emplace_back("CAST_TO", std::to_string(cast_to));
  }
  if (node.op_type == "PRelu") {
    if (node.inputs.size() != 2) return InvalidModelError("PRelu needs a slope input");
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* slope, RequireTensor(graph, node.inputs[1]));
    GLPOOL_ASSIGN_OR_RETURN(BroadcastMap map, MapBroadcast(slope->shape, out->shape));
    plan.inputs.push_back(slope->name);
    plan.defines.emplace_back("IN1_SAME", map.same ? "1" : "0");
    plan.defines.emplace_back("IN1_MAP", map.Glsl());
  }
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutput(graph, out->name, plan.local_size);
  return plan;
}

}  // namespace glpool
