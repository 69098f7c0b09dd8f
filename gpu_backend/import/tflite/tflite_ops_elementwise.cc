// Elementwise TFLite ops -> ONNX's: binary arithmetic with fused
// activations and broadcast constants, activations, DEQUANTIZE of constants.
#include "gpu_backend/import/tflite/tflite_converter.h"

namespace glpool {
namespace {

// An operand for an op whose other operand has rank `rank`: a constant
// that broadcasts against a rank-4 (NHWC) activation is padded to rank 4
// and permuted like one, so it broadcasts the same way against NCHW.
StatusOr<std::string> Operand(TfliteOpContext& ctx, int index, int rank) {
  TfliteConverter& c = *ctx.conv;
  const Tensor* t = c.Constant(index);
  if (t == nullptr) {
    if (rank == 4 && c.Rank(index) != 4 && ElementCount(ctx.ShapeOf(index)) != 1) {
      return ctx.Fail(StatusCode::kUnsupported, "broadcasts the rank-" + std::to_string(c.Rank(index)) +
                                                    " activation '" + ctx.Name(index) + "' against a rank-4 one");
    }
    return ctx.Name(index);
  }
  if (rank != 4 || t->shape.size() == 4) {
    return t->shape.size() == 4 ? c.AddConstant(t->name + "/nchw", NhwcToNchw(t->data)) : t->name;
  }
  if (t->shape.size() > 4) return ctx.Fail(StatusCode::kInvalidModel, "constant of rank > 4 against a rank-4 tensor");
  TensorData padded = t->data;
  padded.shape.insert(padded.shape.begin(), 4 - t->shape.size(), 1);
  return c.AddConstant(t->name + "/nchw", NhwcToNchw(padded));
}

tfl::ActivationFunctionType BinaryActivation(const tfl::Operator& op, int code) {
  switch (static_cast<TfliteOp>(code)) {
    case TfliteOp::kAdd: return op.builtin_options_as_AddOptions() ? op.builtin_options_as_AddOptions()->fused_activation_function() : tfl::ActivationFunctionType::NONE;
    case TfliteOp::kSub: return op.builtin_options_as_SubOptions() ? op.builtin_options_as_SubOptions()->fused_activation_function() : tfl::ActivationFunctionType::NONE;
    case TfliteOp::kMul: return op.builtin_options_as_MulOptions() ? op.builtin_options_as_MulOptions()->fused_activation_function() : tfl::ActivationFunctionType::NONE;
    case TfliteOp::kDiv: return op.builtin_options_as_DivOptions() ? op.builtin_options_as_DivOptions()->fused_activation_function() : tfl::ActivationFunctionType::NONE;
    default: return tfl::ActivationFunctionType::NONE;
  }
}

const char* BinaryOnnxOp(int code) {
  switch (static_cast<TfliteOp>(code)) {
    case TfliteOp::kAdd: return "Add";
    case TfliteOp::kSub: return "Sub";
    case TfliteOp::kMul: return "Mul";
    case TfliteOp::kDiv: return "Div";
    case TfliteOp::kMaximum: return "Max";
    case TfliteOp::kMinimum: return "Min";
    case TfliteOp::kPrelu: return "PRelu";
    default: return nullptr;
  }
}

const char* UnaryOnnxOp(int code) {
  switch (static_cast<TfliteOp>(code)) {
    case TfliteOp::kLogistic: return "Sigmoid";
    case TfliteOp::kTanh: return "Tanh";
    case TfliteOp::kRelu: return "Relu";
    case TfliteOp::kHardSwish: return "HardSwish";
    case TfliteOp::kExp: return "Exp";
    case TfliteOp::kLog: return "Log";
    case TfliteOp::kAbs: return "Abs";
    case TfliteOp::kNeg: return "Neg";
    case TfliteOp::kSqrt: return "Sqrt";
    case TfliteOp::kFloor: return "Floor";
    default: return nullptr;
  }
}

}  // namespace

Status ConvertElementwise(TfliteOpContext& ctx, int code) {
  TfliteConverter& c = *ctx.conv;
  if (const char* onnx = BinaryOnnxOp(code)) {
    GLPOOL_ASSIGN_OR_RETURN(int a, ctx.Input(0));
    GLPOOL_ASSIGN_OR_RETURN(int b, ctx.Input(1));
    const int rank = std::max(c.Rank(a), c.Rank(b));
    GLPOOL_ASSIGN_OR_RETURN(std::string lhs, Operand(ctx, a, rank));
    GLPOOL_ASSIGN_OR_RETURN(std::string rhs, Operand(ctx, b, rank));
    const tfl::ActivationFunctionType act = BinaryActivation(*ctx.op, code);
    const std::string pre = PreActivationName(ctx, act);
    c.AddNode(onnx, {lhs, rhs}, {pre});
    return EmitFusedActivation(ctx, act, pre, ctx.OutName());
  }
  const TfliteOp op = static_cast<TfliteOp>(code);
  if (const char* onnx = UnaryOnnxOp(code)) {
    GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
    c.AddNode(onnx, {ctx.Name(x)}, {ctx.OutName()});
    return Status::Ok();
  }
  if (op == TfliteOp::kRelu6 || op == TfliteOp::kReluN1To1) {
    GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
    return EmitFusedActivation(ctx, op == TfliteOp::kRelu6 ? tfl::ActivationFunctionType::RELU6
                                                           : tfl::ActivationFunctionType::RELU_N1_TO_1,
                               ctx.Name(x), ctx.OutName());
  }
  if (op == TfliteOp::kRsqrt) {
    GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
    const std::string root = c.NewName(ctx.OutName() + "/sqrt");
    c.AddNode("Sqrt", {ctx.Name(x)}, {root});
    c.AddNode("Reciprocal", {root}, {ctx.OutName()});
    return Status::Ok();
  }
  if (op == TfliteOp::kLeakyRelu) {
    GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
    const auto* o = ctx.op->builtin_options_as_LeakyReluOptions();
    c.AddNode("LeakyRelu", {ctx.Name(x)}, {ctx.OutName()}).attributes["alpha"] = o ? o->alpha() : 0.2f;
    return Status::Ok();
  }
  if (op == TfliteOp::kDequantize) {
    // Weights stored as float16 or int8 were expanded when read; their
    // DEQUANTIZE is the constant itself.
    GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
    const Tensor* t = c.Constant(x);
    if (t == nullptr) {
      return ctx.Fail(StatusCode::kUnsupported, "dequantizes the run-time tensor '" + ctx.Name(x) +
                                                    "': quantized activations need a CPU fallback this build does not have");
    }
    Tensor copy = *t;
    copy.name = ctx.OutName();
    copy.shape = copy.data.shape;
    c.graph.tensors[copy.name] = std::move(copy);
    return Status::Ok();
  }
  if (op == TfliteOp::kQuantize) {
    return ctx.Fail(StatusCode::kUnsupported, "quantizes activations; glpool runs float models on the GPU "
                                              "(quantized activations need a CPU fallback this build does not have)");
  }
  return NotFoundError("");
}

}  // namespace glpool
