// Layout-aware TFLite ops -> ONNX's: CONCATENATION, RESHAPE/SQUEEZE, PAD,
// RESIZE_*, MEAN/SUM/REDUCE_MAX, SOFTMAX, with NHWC axes renumbered for the
// IR's NCHW (see tflite_converter.h).
#include "gpu_backend/import/tflite/tflite_converter.h"

namespace glpool {
namespace {

StatusOr<int64_t> NormalizeAxis(TfliteOpContext& ctx, int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "axis " + std::to_string(axis) + " is out of range for rank " +
                                                   std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

Status ConvertConcat(TfliteOpContext& ctx) {
  TfliteConverter& c = *ctx.conv;
  const auto* o = ctx.op->builtin_options_as_ConcatenationOptions();
  if (o == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "has no ConcatenationOptions");
  const int rank = c.Rank(ctx.outputs[0]);
  GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, o->axis(), rank));
  std::vector<std::string> inputs;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(i));
    if (c.Rank(x) != rank) return ctx.Fail(StatusCode::kInvalidModel, "joins tensors of different ranks");
    const Tensor* t = c.Constant(x);
    inputs.push_back(t != nullptr && rank == 4 ? c.AddConstant(t->name + "/nchw", NhwcToNchw(t->data)) : ctx.Name(x));
  }
  const std::string pre = PreActivationName(ctx, o->fused_activation_function());
  c.AddNode("Concat", inputs, {pre}).attributes["axis"] = IrAxis(axis, rank);
  return EmitFusedActivation(ctx, o->fused_activation_function(), pre, ctx.OutName());
}

Status ConvertPad(TfliteOpContext& ctx, bool v2) {
  TfliteConverter& c = *ctx.conv;
  GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* paddings, ctx.ConstantInput(1, "the paddings"));
  const int rank = c.Rank(x);
  const std::vector<int64_t> values = paddings->data.ToInt64s();
  if (paddings->shape != Shape{rank, 2}) {
    return ctx.Fail(StatusCode::kInvalidModel, "paddings " + ShapeToString(paddings->shape) + " do not fit rank " +
                                                   std::to_string(rank));
  }
  std::vector<int64_t> pads(2 * rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t ir = IrAxis(d, rank);
    pads[ir] = values[2 * d];
    pads[ir + rank] = values[2 * d + 1];
  }
  std::vector<std::string> inputs = {ctx.Name(x), c.AddInt64Constant(ctx.OutName() + "/pads", pads)};
  if (v2 && ctx.inputs.size() > 2 && ctx.inputs[2] >= 0) {
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* value, ctx.ConstantInput(2, "the pad value"));
    inputs.push_back(c.AddFloatConstant(ctx.OutName() + "/pad_value", {}, {value->data.ToFloats().at(0)}));
  }
  c.AddNode("Pad", inputs, {ctx.OutName()});
  return Status::Ok();
}

Status ConvertResize(TfliteOpContext& ctx, bool bilinear) {
  TfliteConverter& c = *ctx.conv;
  GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
  bool align_corners = false, half_pixel = false;
  if (bilinear) {
    const auto* o = ctx.op->builtin_options_as_ResizeBilinearOptions();
    if (o) align_corners = o->align_corners(), half_pixel = o->half_pixel_centers();
  } else {
    const auto* o = ctx.op->builtin_options_as_ResizeNearestNeighborOptions();
    if (o) align_corners = o->align_corners(), half_pixel = o->half_pixel_centers();
  }
  if (c.Rank(x) != 4 || c.Rank(ctx.outputs[0]) != 4) return ctx.Fail(StatusCode::kInvalidModel, "expects rank-4 tensors");
  const std::string sizes = c.AddInt64Constant(ctx.OutName() + "/sizes", IrShape(ctx.ShapeOf(ctx.outputs[0])));
  Node& node = c.AddNode("Resize", {ctx.Name(x), "", "", sizes}, {ctx.OutName()});
  node.attributes["mode"] = std::string(bilinear ? "linear" : "nearest");
  node.attributes["coordinate_transformation_mode"] =
      std::string(align_corners ? "align_corners" : half_pixel ? (bilinear ? "half_pixel" : "tf_half_pixel_for_nn") : "asymmetric");
  if (!bilinear) node.attributes["nearest_mode"] = std::string(align_corners ? "round_prefer_ceil" : "floor");
  return Status::Ok();
}

Status ConvertReduce(TfliteOpContext& ctx, const char* onnx) {
  TfliteConverter& c = *ctx.conv;
  GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* axes_tensor, ctx.ConstantInput(1, "the axes"));
  const auto* o = ctx.op->builtin_options_as_ReducerOptions();
  const bool keep = o != nullptr && o->keep_dims();
  const int rank = c.Rank(x);
  std::vector<int64_t> axes;
  std::vector<bool> reduced(rank, false);
  for (int64_t a : axes_tensor->data.ToInt64s()) {
    GLPOOL_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, a, rank));
    if (!reduced[axis]) axes.push_back(IrAxis(axis, rank));
    reduced[axis] = true;
  }
  // Without keep_dims the dims left keep the IR's order (N, C, H, W); that is
  // TFLite's order (N, H, W, C) unless channels and pixels both remain.
  if (rank == 4 && !keep && !reduced[3] && (!reduced[1] || !reduced[2])) {
    return ctx.Fail(StatusCode::kUnsupported, "reduces a rank-4 tensor to one whose pixel and channel dims "
                                              "both remain without keep_dims");
  }
  // The IR is ONNX opset 14: ReduceSum takes its axes as an input there.
  const bool axes_input = std::string(onnx) == "ReduceSum";
  std::vector<std::string> inputs = {ctx.Name(x)};
  if (axes_input) inputs.push_back(c.AddInt64Constant(ctx.OutName() + "/axes", axes));
  Node& node = c.AddNode(onnx, inputs, {ctx.OutName()});
  if (!axes_input) node.attributes["axes"] = axes;
  node.attributes["keepdims"] = int64_t{keep ? 1 : 0};
  return Status::Ok();
}

Status ConvertSoftmax(TfliteOpContext& ctx) {
  TfliteConverter& c = *ctx.conv;
  GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
  const auto* o = ctx.op->builtin_options_as_SoftmaxOptions();
  std::string input = ctx.Name(x);
  if (o != nullptr && o->beta() != 1.0f) {
    input = c.NewName(ctx.OutName() + "/scaled");
    c.AddNode("Mul", {ctx.Name(x), c.AddFloatConstant(ctx.OutName() + "/beta", {}, {o->beta()})}, {input});
  }
  const int rank = c.Rank(x);
  c.AddNode("Softmax", {input}, {ctx.OutName()}).attributes["axis"] = IrAxis(rank - 1, rank);
  return Status::Ok();
}

}  // namespace

Status ConvertShapeOp(TfliteOpContext& ctx, int code) {
  switch (static_cast<TfliteOp>(code)) {
    case TfliteOp::kConcatenation: return ConvertConcat(ctx);
    case TfliteOp::kReshape:
    case TfliteOp::kSqueeze: {
      GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
      return EmitReshape(ctx, ctx.Name(x), ctx.ShapeOf(x), ctx.OutName(), ctx.ShapeOf(ctx.outputs[0]));
    }
    case TfliteOp::kPad: return ConvertPad(ctx, false);
    case TfliteOp::kPadV2: return ConvertPad(ctx, true);
    case TfliteOp::kResizeBilinear: return ConvertResize(ctx, true);
    case TfliteOp::kResizeNearestNeighbor: return ConvertResize(ctx, false);
    case TfliteOp::kMean: return ConvertReduce(ctx, "ReduceMean");
    case TfliteOp::kSum: return ConvertReduce(ctx, "ReduceSum");
    case TfliteOp::kReduceMax: return ConvertReduce(ctx, "ReduceMax");
    case TfliteOp::kSoftmax: return ConvertSoftmax(ctx);
    default: return NotFoundError("");
  }
}

}  // namespace glpool
