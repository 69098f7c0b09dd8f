// What the .tflite op converters share while one file becomes a Graph.
// Internal to gpu_backend/import/tflite/; callers use tflite_import.h.
//
// Layout: TFLite keeps activations NHWC; glpool's IR is ONNX's (NCHW
// logical shapes, stored PHWC4 on the GPU). Every rank-4 activation is
// imported as the same tensor with logical shape [N,C,H,W], so the GPU holds
// it exactly as a TFLite GPU delegate would (channels packed by four, HW
// row-major) and no op needs a run-time transpose: weights are permuted at
// import (OHWI -> OIHW), axes of CONCATENATION/MEAN/SOFTMAX/PAD/
// STRIDED_SLICE are renumbered, and per-channel constants reshaped to
// [C,1,1]. The one exception is a RESHAPE (or FULLY_CONNECTED's flatten)
// that regroups a rank-4 tensor whose NHWC and NCHW element orders differ
// (C > 1 and H*W > 1): that one gets an explicit Transpose, because the
// element order is the op's meaning there.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gpu_backend/graph/graph.h"
#include "gpu_backend/import/tflite/tflite_file.h"

namespace glpool {

struct TfliteConverter {
  const TfliteFile& file;
  Graph graph;
  std::vector<std::string> names;   // tflite tensor index -> IR tensor name
  std::vector<Shape> tflite_shapes; // shapes as the file states them (NHWC)
  std::vector<bool> defined;        // constant, graph input, or written by an earlier op
  std::set<std::string> used_names;

  explicit TfliteConverter(const TfliteFile& f) : file(f) {}

  // A fresh IR tensor name starting with `base`.
  std::string NewName(const std::string& base);
  // Adds a constant tensor; returns its name.
  std::string AddConstant(const std::string& base, TensorData data);
  std::string AddInt64Constant(const std::string& base, const std::vector<int64_t>& values);
  std::string AddFloatConstant(const std::string& base, Shape shape, const std::vector<float>& values);
  Node& AddNode(const std::string& op_type, std::vector<std::string> inputs, std::vector<std::string> outputs);

  // The IR constant behind tflite tensor `index` (float weights already
  // dequantized/expanded), or null for an activation.
  const Tensor* Constant(int index) const;
  bool IsConstant(int index) const { return Constant(index) != nullptr; }
  int Rank(int index) const { return static_cast<int>(tflite_shapes[index].size()); }
};

// One operator, with its checked inputs (-1: omitted optional input).
struct TfliteOpContext {
  TfliteConverter* conv;
  int index;                 // operator index in the subgraph
  const tfl::Operator* op;
  std::vector<int> inputs;
  std::vector<int> outputs;
  std::string label;         // "op 12 (CONV_2D)"

  Status Fail(StatusCode code, const std::string& message) const { return Status(code, label + ": " + message); }
  // The `i`th input, or kInvalidModel naming the op when it is absent.
  StatusOr<int> Input(size_t i) const;
  StatusOr<const Tensor*> ConstantInput(size_t i, const std::string& what) const;
  const std::string& Name(int tensor) const { return conv->names[tensor]; }
  const Shape& ShapeOf(int tensor) const { return conv->tflite_shapes[tensor]; }
  std::string OutName(size_t i = 0) const { return conv->names[outputs[i]]; }
};

// NHWC shape -> the IR's shape (rank 4: NCHW; other ranks unchanged).
Shape IrShape(const Shape& tflite_shape);
// NHWC axis of a rank-4 tensor -> its IR (NCHW) axis; other ranks unchanged.
int64_t IrAxis(int64_t axis, int rank);
// Rank-4 NHWC data -> NCHW data (a copy with permuted elements).
TensorData NhwcToNchw(const TensorData& data);

// Converts every tensor of the file: names, shapes, dtypes, constant data
// (float16 expanded, int8/uint8 weights dequantized), graph inputs.
Status ConvertTfliteTensors(TfliteConverter* conv);
// Converts one operator into IR nodes.
Status ConvertTfliteOp(TfliteOpContext& ctx);

// Op groups (tflite_ops_*.cc); each returns kUnsupported for codes it
// does not hold only through ConvertTfliteOp's dispatch.
Status ConvertConvolution(TfliteOpContext& ctx, int code);
Status ConvertTransposeConv(TfliteOpContext& ctx, bool mediapipe_custom);
Status ConvertPool(TfliteOpContext& ctx, int code);
Status ConvertFullyConnected(TfliteOpContext& ctx);
Status ConvertElementwise(TfliteOpContext& ctx, int code);
Status ConvertShapeOp(TfliteOpContext& ctx, int code);

// Emits the IR for "tflite tensor `in` reshaped to tflite tensor `out`'s
// shape" into `out_name` (see the layout note above for the transposes).
Status EmitReshape(TfliteOpContext& ctx, const std::string& in_name, const Shape& in_shape,
                   const std::string& out_name, const Shape& out_shape);
// Appends the activation node a fused_activation_function asks for:
// writes `pre` -> `out` (kUnsupported for SIGN_BIT).
Status EmitFusedActivation(TfliteOpContext& ctx, tfl::ActivationFunctionType act, const std::string& pre,
                           const std::string& out);
// The name an op should write before its fused activation: the output
// itself when there is none.
std::string PreActivationName(TfliteOpContext& ctx, tfl::ActivationFunctionType act);

}  // namespace glpool
