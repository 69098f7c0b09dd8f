// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV (and MediaPipe's
// Convolution2DTransposeBias), FULLY_CONNECTED, MAX/AVERAGE_POOL_2D ->
// Conv, ConvTranspose, Gemm, MaxPool, AveragePool with weights permuted at
// import (TFLite's OHWI filters -> ONNX's OIHW / IOHW).
#include <cstring>

#include "gpu_backend/import/tflite/tflite_converter.h"

namespace glpool {
namespace {

// TensorFlow's SAME padding for one spatial dim: the total that makes
// out = ceil(in / stride), split with the odd pixel at the end.
std::pair<int64_t, int64_t> SamePads(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t dilation) {
  const int64_t effective = (kernel - 1) * dilation + 1;
  const int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
  return {total / 2, total - total / 2};
}

// Permutes a rank-4 constant by `perm` (out dim i = in dim perm[i]).
TensorData Permute4(const TensorData& in, const int perm[4]) {
  const Shape& s = in.shape;
  TensorData out;
  out.dtype = in.dtype;
  out.shape = {s[perm[0]], s[perm[1]], s[perm[2]], s[perm[3]]};
  const size_t size = DataTypeSize(in.dtype);
  out.bytes.resize(in.bytes.size());
  const int64_t stride_in[4] = {s[1] * s[2] * s[3], s[2] * s[3], s[3], 1};
  int64_t idx[4];
  int64_t dst = 0;
  for (idx[0] = 0; idx[0] < out.shape[0]; ++idx[0])
    for (idx[1] = 0; idx[1] < out.shape[1]; ++idx[1])
      for (idx[2] = 0; idx[2] < out.shape[2]; ++idx[2])
        for (idx[3] = 0; idx[3] < out.shape[3]; ++idx[3], ++dst) {
          int64_t src = 0;
          for (int d = 0; d < 4; ++d) src += idx[d] * stride_in[perm[d]];
          std::memcpy(&out.bytes[dst * size], &in.bytes[src * size], size);
        }
  return out;
}

Status CheckSpatial(TfliteOpContext& ctx, int x, int y) {
  if (ctx.conv->Rank(x) != 4 || ctx.conv->Rank(y) != 4) {
    return ctx.Fail(StatusCode::kInvalidModel, "expects rank-4 NHWC input and output, got " +
                                                   ShapeToString(ctx.ShapeOf(x)) + " -> " + ShapeToString(ctx.ShapeOf(y)));
  }
  return Status::Ok();
}

Status CheckPositive(TfliteOpContext& ctx, std::initializer_list<int> values, const std::string& what) {
  for (int v : values) {
    if (v <= 0 || v > (1 << 16)) return ctx.Fail(StatusCode::kInvalidModel, what + " " + std::to_string(v) + " is out of range");
  }
  return Status::Ok();
}

std::vector<int64_t> Pads(TfliteOpContext& ctx, tfl::Padding padding, int x, int y, int64_t kh, int64_t kw,
                          int64_t sh, int64_t sw, int64_t dh, int64_t dw) {
  if (padding != tfl::Padding::SAME) return {0, 0, 0, 0};
  const Shape& in = ctx.ShapeOf(x);
  const Shape& out = ctx.ShapeOf(y);
  const auto [top, bottom] = SamePads(in[1], out[1], kh, sh, dh);
  const auto [left, right] = SamePads(in[2], out[2], kw, sw, dw);
  return {top, left, bottom, right};
}

// Adds the optional bias input (index 2 unless said otherwise) to `inputs`.
Status AddBias(TfliteOpContext& ctx, size_t index, std::vector<std::string>* inputs) {
  if (index >= ctx.inputs.size() || ctx.inputs[index] < 0) return Status::Ok();
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* bias, ctx.ConstantInput(index, "the bias"));
  inputs->push_back(bias->name);
  return Status::Ok();
}

}  // namespace

Status ConvertConvolution(TfliteOpContext& ctx, int code) {
  TfliteConverter& c = *ctx.conv;
  const bool depthwise = code == static_cast<int>(TfliteOp::kDepthwiseConv2d);
  GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* w, ctx.ConstantInput(1, "the filter"));
  const int y = ctx.outputs[0];
  GLPOOL_RETURN_IF_ERROR(CheckSpatial(ctx, x, y));
  if (w->shape.size() != 4 || w->dtype != DataType::kFloat32) {
    return ctx.Fail(StatusCode::kInvalidModel, "the filter must be a rank-4 float tensor, not " +
                                                   ShapeToString(w->shape) + " " + DataTypeName(w->dtype));
  }
  int stride_h, stride_w, dil_h, dil_w;
  tfl::Padding padding;
  tfl::ActivationFunctionType act;
  if (depthwise) {
    const auto* o = ctx.op->builtin_options_as_DepthwiseConv2DOptions();
    if (o == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "has no DepthwiseConv2DOptions");
    stride_h = o->stride_h(), stride_w = o->stride_w(), dil_h = o->dilation_h_factor(), dil_w = o->dilation_w_factor();
    padding = o->padding(), act = o->fused_activation_function();
  } else {
    const auto* o = ctx.op->builtin_options_as_Conv2DOptions();
    if (o == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "has no Conv2DOptions");
    stride_h = o->stride_h(), stride_w = o->stride_w(), dil_h = o->dilation_h_factor(), dil_w = o->dilation_w_factor();
    padding = o->padding(), act = o->fused_activation_function();
  }
  GLPOOL_RETURN_IF_ERROR(CheckPositive(ctx, {stride_h, stride_w, dil_h, dil_w}, "stride/dilation"));
  const int64_t in_c = ctx.ShapeOf(x)[3], out_c = ctx.ShapeOf(y)[3];
  const int64_t kh = w->shape[1], kw = w->shape[2];
  std::string weights;
  int64_t group = 1;
  if (depthwise) {
    // [1, KH, KW, C*M] -> [C*M, 1, KH, KW]: output channel c*M+m reads input c.
    if (w->shape[0] != 1 || w->shape[3] != out_c || in_c == 0 || out_c % in_c != 0) {
      return ctx.Fail(StatusCode::kInvalidModel, "depthwise filter " + ShapeToString(w->shape) +
                                                     " does not fit input channels " + std::to_string(in_c));
    }
    static constexpr int kPerm[4] = {3, 0, 1, 2};
    weights = c.AddConstant(w->name + "/oihw", Permute4(w->data, kPerm));
    group = in_c;
  } else {
    // OHWI -> OIHW; a filter with fewer input channels than the input is a
    // grouped convolution.
    if (w->shape[0] != out_c || w->shape[3] == 0 || in_c % w->shape[3] != 0) {
      return ctx.Fail(StatusCode::kInvalidModel, "filter " + ShapeToString(w->shape) + " does not fit input " +
                                                     ShapeToString(ctx.ShapeOf(x)) + " and output channels " +
                                                     std::to_string(out_c));
    }
    static constexpr int kPerm[4] = {0, 3, 1, 2};
    weights = c.AddConstant(w->name + "/oihw", Permute4(w->data, kPerm));
    group = in_c / w->shape[3];
  }
  std::vector<std::string> inputs = {ctx.Name(x), weights};
  GLPOOL_RETURN_IF_ERROR(AddBias(ctx, 2, &inputs));
  const std::string pre = PreActivationName(ctx, act);
  Node& node = c.AddNode("Conv", inputs, {pre});
  node.attributes["kernel_shape"] = std::vector<int64_t>{kh, kw};
  node.attributes["strides"] = std::vector<int64_t>{stride_h, stride_w};
  node.attributes["dilations"] = std::vector<int64_t>{dil_h, dil_w};
  node.attributes["pads"] = Pads(ctx, padding, x, y, kh, kw, stride_h, stride_w, dil_h, dil_w);
  node.attributes["group"] = group;
  return EmitFusedActivation(ctx, act, pre, ctx.OutName());
}

Status ConvertTransposeConv(TfliteOpContext& ctx, bool mediapipe_custom) {
  TfliteConverter& c = *ctx.conv;
  // Builtin: (output_shape, filter, input[, bias]); MediaPipe's custom op:
  // (input, filter, bias) with TfLiteTransposeConvParams
  // {int32 padding (1 SAME, 2 VALID), int32 stride_w, int32 stride_h}.
  const size_t x_index = mediapipe_custom ? 0 : 2;
  GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(x_index));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* w, ctx.ConstantInput(1, "the filter"));
  const int y = ctx.outputs[0];
  GLPOOL_RETURN_IF_ERROR(CheckSpatial(ctx, x, y));
  int32_t stride_h = 0, stride_w = 0;
  bool same = false;
  if (mediapipe_custom) {
    const auto* options = ctx.op->custom_options();
    int32_t params[3];
    if (options == nullptr || options->size() < sizeof(params)) {
      return ctx.Fail(StatusCode::kInvalidModel, "needs 12 bytes of custom options (padding, strides)");
    }
    std::memcpy(params, options->data(), sizeof(params));
    if (params[0] != 1 && params[0] != 2) return ctx.Fail(StatusCode::kInvalidModel, "unknown padding " + std::to_string(params[0]));
    same = params[0] == 1, stride_w = params[1], stride_h = params[2];
  } else {
    const auto* o = ctx.op->builtin_options_as_TransposeConvOptions();
    if (o == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "has no TransposeConvOptions");
    same = o->padding() == tfl::Padding::SAME, stride_w = o->stride_w(), stride_h = o->stride_h();
  }
  GLPOOL_RETURN_IF_ERROR(CheckPositive(ctx, {stride_h, stride_w}, "stride"));
  const Shape& in = ctx.ShapeOf(x);
  const Shape& out = ctx.ShapeOf(y);
  if (w->shape.size() != 4 || w->dtype != DataType::kFloat32 || w->shape[0] != out[3] || w->shape[3] != in[3]) {
    return ctx.Fail(StatusCode::kInvalidModel, "filter " + ShapeToString(w->shape) + " does not fit " +
                                                   ShapeToString(in) + " -> " + ShapeToString(out));
  }
  const int64_t kh = w->shape[1], kw = w->shape[2];
  // The output size is given; the padding is what makes a forward
  // convolution of the output give the input (TFLite's rule), split like
  // SAME with the odd pixel at the end; VALID pads nothing.
  std::vector<int64_t> pads(4, 0), output_padding(2, 0);
  const int64_t strides[2] = {stride_h, stride_w}, kernel[2] = {kh, kw};
  for (int d = 0; d < 2; ++d) {
    const int64_t full = (in[1 + d] - 1) * strides[d] + kernel[d];
    const int64_t total = same ? std::max<int64_t>(full - out[1 + d], 0) : 0;
    pads[d] = total / 2;
    pads[d + 2] = total - total / 2;
    output_padding[d] = out[1 + d] - (full - total);
    if (output_padding[d] < 0 || output_padding[d] >= strides[d]) {
      return ctx.Fail(StatusCode::kInvalidModel, "output " + ShapeToString(out) + " does not follow from input " +
                                                     ShapeToString(in) + ", filter and strides");
    }
  }
  static constexpr int kPerm[4] = {3, 0, 1, 2};  // OHWI -> IOHW
  std::vector<std::string> inputs = {ctx.Name(x), c.AddConstant(w->name + "/iohw", Permute4(w->data, kPerm))};
  GLPOOL_RETURN_IF_ERROR(AddBias(ctx, mediapipe_custom ? 2 : 3, &inputs));
  Node& node = c.AddNode("ConvTranspose", inputs, {ctx.OutName()});
  node.attributes["kernel_shape"] = std::vector<int64_t>{kh, kw};
  node.attributes["strides"] = std::vector<int64_t>{stride_h, stride_w};
  node.attributes["pads"] = pads;
  node.attributes["output_padding"] = output_padding;
  return Status::Ok();
}

Status ConvertPool(TfliteOpContext& ctx, int code) {
  TfliteConverter& c = *ctx.conv;
  GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
  const int y = ctx.outputs[0];
  GLPOOL_RETURN_IF_ERROR(CheckSpatial(ctx, x, y));
  const auto* o = ctx.op->builtin_options_as_Pool2DOptions();
  if (o == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "has no Pool2DOptions");
  GLPOOL_RETURN_IF_ERROR(CheckPositive(ctx, {o->stride_h(), o->stride_w(), o->filter_height(), o->filter_width()},
                                       "stride/filter size"));
  const bool max = code == static_cast<int>(TfliteOp::kMaxPool2d);
  const std::string pre = PreActivationName(ctx, o->fused_activation_function());
  Node& node = c.AddNode(max ? "MaxPool" : "AveragePool", {ctx.Name(x)}, {pre});
  node.attributes["kernel_shape"] = std::vector<int64_t>{o->filter_height(), o->filter_width()};
  node.attributes["strides"] = std::vector<int64_t>{o->stride_h(), o->stride_w()};
  node.attributes["pads"] = Pads(ctx, o->padding(), x, y, o->filter_height(), o->filter_width(), o->stride_h(),
                                 o->stride_w(), 1, 1);
  // TensorFlow averages over the pixels inside the image only.
  if (!max) node.attributes["count_include_pad"] = int64_t{0};
  return EmitFusedActivation(ctx, o->fused_activation_function(), pre, ctx.OutName());
}

Status ConvertFullyConnected(TfliteOpContext& ctx) {
  TfliteConverter& c = *ctx.conv;
  GLPOOL_ASSIGN_OR_RETURN(int x, ctx.Input(0));
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* w, ctx.ConstantInput(1, "the weights"));
  const auto* o = ctx.op->builtin_options_as_FullyConnectedOptions();
  const tfl::ActivationFunctionType act = o ? o->fused_activation_function() : tfl::ActivationFunctionType::NONE;
  if (o != nullptr && (o->weights_format() != 0 || o->keep_num_dims())) {
    return ctx.Fail(StatusCode::kUnsupported, "shuffled weights or keep_num_dims are not supported");
  }
  const int y = ctx.outputs[0];
  if (w->shape.size() != 2 || w->dtype != DataType::kFloat32 || ctx.conv->Rank(y) != 2 ||
      ctx.ShapeOf(y)[1] != w->shape[0] || w->shape[1] == 0 || ElementCount(ctx.ShapeOf(x)) % w->shape[1] != 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "weights " + ShapeToString(w->shape) + " do not fit " +
                                                   ShapeToString(ctx.ShapeOf(x)) + " -> " + ShapeToString(ctx.ShapeOf(y)));
  }
  // TFLite flattens the input to [-1, K] in its own (NHWC) element order.
  std::string flat = ctx.Name(x);
  const Shape flat_shape = {ElementCount(ctx.ShapeOf(x)) / w->shape[1], w->shape[1]};
  if (ctx.ShapeOf(x) != flat_shape) {
    flat = c.NewName(ctx.OutName() + "/flat");
    GLPOOL_RETURN_IF_ERROR(EmitReshape(ctx, ctx.Name(x), ctx.ShapeOf(x), flat, flat_shape));
  }
  std::vector<std::string> inputs = {flat, w->name};
  GLPOOL_RETURN_IF_ERROR(AddBias(ctx, 2, &inputs));
  const std::string pre = PreActivationName(ctx, act);
  c.AddNode("Gemm", inputs, {pre}).attributes["transB"] = int64_t{1};
  return EmitFusedActivation(ctx, act, pre, ctx.OutName());
}

}  // namespace glpool
