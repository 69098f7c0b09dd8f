// Operator dispatch and the helpers every op converter uses.
#include "gpu_backend/import/tflite/tflite_converter.h"

namespace glpool {

StatusOr<int> TfliteOpContext::Input(size_t i) const {
  if (i >= inputs.size() || inputs[i] < 0) {
    return Fail(StatusCode::kInvalidModel, "input " + std::to_string(i) + " is missing");
  }
  return inputs[i];
}

StatusOr<const Tensor*> TfliteOpContext::ConstantInput(size_t i, const std::string& what) const {
  GLPOOL_ASSIGN_OR_RETURN(int index, Input(i));
  const Tensor* t = conv->Constant(index);
  if (t == nullptr) {
    return Fail(StatusCode::kUnsupported, what + " (tensor '" + conv->file.tensor_name(index) +
                                              "') is computed at run time; glpool needs it constant");
  }
  return t;
}

std::string PreActivationName(TfliteOpContext& ctx, tfl::ActivationFunctionType act) {
  if (act == tfl::ActivationFunctionType::NONE) return ctx.OutName();
  return ctx.conv->NewName(ctx.OutName() + "/pre_activation");
}

Status EmitFusedActivation(TfliteOpContext& ctx, tfl::ActivationFunctionType act, const std::string& pre,
                           const std::string& out) {
  TfliteConverter& c = *ctx.conv;
  switch (act) {
    case tfl::ActivationFunctionType::NONE: return Status::Ok();
    case tfl::ActivationFunctionType::RELU: c.AddNode("Relu", {pre}, {out}); return Status::Ok();
    case tfl::ActivationFunctionType::TANH: c.AddNode("Tanh", {pre}, {out}); return Status::Ok();
    case tfl::ActivationFunctionType::RELU6:
    case tfl::ActivationFunctionType::RELU_N1_TO_1: {
      const bool six = act == tfl::ActivationFunctionType::RELU6;
      const std::string lo = c.AddFloatConstant(out + "/clip_min", {}, {six ? 0.0f : -1.0f});
      const std::string hi = c.AddFloatConstant(out + "/clip_max", {}, {six ? 6.0f : 1.0f});
      c.AddNode("Clip", {pre, lo, hi}, {out});
      return Status::Ok();
    }
    default:
      return ctx.Fail(StatusCode::kUnsupported,
                      "fused activation " + std::to_string(static_cast<int>(act)) + " is not supported");
  }
}

Status EmitReshape(TfliteOpContext& ctx, const std::string& in_name, const Shape& in_shape,
                   const std::string& out_name, const Shape& out_shape) {
  TfliteConverter& c = *ctx.conv;
  if (ElementCount(in_shape) != ElementCount(out_shape)) {
    return ctx.Fail(StatusCode::kInvalidModel, "reshapes " + ShapeToString(in_shape) + " to " +
                                                   ShapeToString(out_shape) + ": the element counts differ");
  }
  // NHWC and NCHW list a rank-4 tensor's elements in the same order when
  // it has one channel or one pixel; then the IR's reshape is TFLite's.
  auto same_order = [](const Shape& s) { return s.size() != 4 || s[3] == 1 || s[1] * s[2] == 1; };
  std::string source = in_name;
  if (!same_order(in_shape)) {
    source = c.NewName(out_name + "/nhwc_in");
    c.AddNode("Transpose", {in_name}, {source}).attributes["perm"] = std::vector<int64_t>{0, 2, 3, 1};
  }
  if (!same_order(out_shape)) {
    const std::string nhwc = c.NewName(out_name + "/nhwc_out");
    c.AddNode("Reshape", {source, c.AddInt64Constant(out_name + "/shape", out_shape)}, {nhwc});
    c.AddNode("Transpose", {nhwc}, {out_name}).attributes["perm"] = std::vector<int64_t>{0, 3, 1, 2};
    return Status::Ok();
  }
  c.AddNode("Reshape", {source, c.AddInt64Constant(out_name + "/shape", IrShape(out_shape))}, {out_name});
  return Status::Ok();
}

Status ConvertTfliteOp(TfliteOpContext& ctx) {
  const int code = ctx.conv->file.builtin_code(*ctx.op);
  switch (static_cast<TfliteOp>(code)) {
    case TfliteOp::kConv2d:
    case TfliteOp::kDepthwiseConv2d:
      return ConvertConvolution(ctx, code);
    case TfliteOp::kTransposeConv:
      return ConvertTransposeConv(ctx, false);
    case TfliteOp::kAveragePool2d:
    case TfliteOp::kMaxPool2d:
      return ConvertPool(ctx, code);
    case TfliteOp::kFullyConnected:
      return ConvertFullyConnected(ctx);
    case TfliteOp::kCustom: {
      const std::string name = ctx.conv->file.op_name(*ctx.op);
      if (name == "Convolution2DTransposeBias") return ConvertTransposeConv(ctx, true);
      return ctx.Fail(StatusCode::kUnsupported, "custom op '" + name + "' is not supported");
    }
    default:
      break;
  }
  Status status = ConvertElementwise(ctx, code);
  if (status.code() != StatusCode::kNotFound) return status;
  status = ConvertShapeOp(ctx, code);
  if (status.code() != StatusCode::kNotFound) return status;
  return ctx.Fail(StatusCode::kUnsupported, "glpool does not read this operator (version " +
                                                std::to_string(ctx.conv->file.op_version(*ctx.op)) + ")");
}

}  // namespace glpool
