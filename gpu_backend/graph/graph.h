// Graph IR: what an imported model becomes before passes and compilation.
//
// A Graph owns every tensor by name (shape, dtype, and data for constants)
// and a topologically ordered list of nodes that refer to tensors by name.
// After import every shape is static; a dimension that cannot be resolved is
// an import error, never a -1 left in here.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "glpool/tensor.h"  // DataType, Shape, TensorData

namespace glpool {

// Numpy/ONNX multidirectional broadcasting of two shapes; kInvalidModel
// quoting both when they do not broadcast.
StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b);

// Whether `gate` can be a Conv's channel gate for X of shape `x` (see the
// Conv channel gate below): X is N x C x H x W and the gate [1 or N, C, 1, 1].
bool IsChannelGateShape(const Shape& gate, const Shape& x);

struct Tensor {
  std::string name;
  DataType dtype = DataType::kUndefined;
  Shape shape;
  bool is_constant = false;  // initializer or folded constant; `data` holds it
  TensorData data;
};

using AttributeValue =
    std::variant<int64_t, float, std::string, std::vector<int64_t>,
                 std::vector<float>, std::vector<std::string>, TensorData>;

// Attributes glpool's own passes put on nodes (ONNX never uses these names).
//
// Fused activation: the producer applies an elementwise activation to its
// (single) output before storing it, so the activation costs no task and no
// intermediate tensor. Executors must honour it on every op that carries it
// (see fused_activation.h: ApplyFusedActivation does it for one value).
//   "fused_activation"        string: an ONNX activation op name, one of
//                             Relu, Clip, Sigmoid, Tanh, HardSigmoid,
//                             HardSwish, LeakyRelu, Elu, or Swish
//                             (x * Sigmoid(x), SiLU: glpool's own name)
//   "fused_activation_params" floats, by activation:
//                             Clip [min, max]; LeakyRelu [alpha];
//                             HardSigmoid [alpha, beta]; Elu [alpha];
//                             the others [] (absent means [])
inline constexpr char kFusedActivationAttr[] = "fused_activation";
inline constexpr char kFusedActivationParamsAttr[] = "fused_activation_params";
// Fused output scale and shift (FuseOutputScaleShift): floats; output 0 is
// activation(result) * scale + shift (scale 1, shift 0 when absent), as a
// Mul and an Add by scalar constants after the node computed it.
inline constexpr char kFusedOutputScaleAttr[] = "fused_output_scale";
inline constexpr char kFusedOutputShiftAttr[] = "fused_output_shift";
struct Node;
// Copies `from`'s fused activation (and its params), output scale and shift,
// those it has, onto `to`: a node that takes over another's output.
void CopyFusedEpilogue(const Node& from, Node& to);
// MatMul bias (FoldBiasIntoMatMul): a MatMul may have a third input, a
// constant fp32 tensor of one value per output column (shape [N], [1, N]...,
// N = Y's last dim), added to every row of the product before its fused
// activation. Every executor honours it.
// Conv channel gate (FuseChannelGateIntoConv): a Conv may have a fourth
// input (B may then be ""), an fp32 [1 or N, C, 1, 1] tensor that
// multiplies X per (image, channel) before the convolution
// (IsChannelGateShape). Every executor honours it.
// Conv residual (FuseResidualAddIntoConv): a Conv may have a fifth input
// (B and the gate may then be ""), an fp32 tensor of Y's shape added to Y
// before its fused activation, scale and shift. Every executor honours it.
// Nearest upsample folded in (FoldNearestUpsampleIntoElementwise): ints
// {k, fy, fx} on an elementwise node whose input k (4-D, [N, C, H / fy,
// W / fx] for an output [N, C, H, W]) is read as its nearest upsampling by
// those whole factors: output element (n, c, h, w) reads input k's
// (n, c, h / fy, w / fx), as the folded Resize computed it. Every executor
// honours it.
inline constexpr char kNearestUpsampledInputAttr[] = "nearest_upsampled_input";
struct NearestUpsample {
  size_t input = 0;  // which input is upsampled
  int64_t fy = 1;
  int64_t fx = 1;
  Shape upsampled;  // the shape it is read as: [N, C, H * fy, W * fx]
};
// `node`'s kNearestUpsampledInputAttr checked against its inputs' shapes
// (in order): an error saying what is wrong when it is malformed (an
// input it does not have, not 4-D, a factor below 1, a shape too large).
StatusOr<NearestUpsample> ReadNearestUpsample(const Node& node, const std::vector<Shape>& input_shapes);
// Aliasing (free) reshape: int 1 on a Reshape/Flatten/Squeeze/Unsqueeze whose
// output keeps its input's PHWC4 layout, so output 0 shares input 0's
// storage. A CPU executor may still copy; compile gives the node no task and
// the output no usage record of its own (it extends its source's lifetime).
inline constexpr char kAliasAttr[] = "alias_input";
// In-place Concat (compile/in_place_concat.h): int 1 on a Concat along C
// whose inputs are windows of its output: their producers write into it,
// compile gives the Concat no task and the inputs no storage of their own.
// Every executor that copies still gets the same values.
inline constexpr char kInPlaceConcatAttr[] = "in_place_concat";
// Reshapes folded into a Transpose (passes.h FoldReshapesIntoTransposes):
// ints, on a Transpose only. "read_input_as": the shape input 0 is read as
// (its row-major elements unchanged); "write_output_as": the shape output 0
// is written as, after the transpose. Every executor honours both; a
// reshape keeps the row-major order, so each is a relabelling of shapes.
inline constexpr char kReadInputAsAttr[] = "read_input_as";
inline constexpr char kWriteOutputAsAttr[] = "write_output_as";

struct Graph;

struct Node {
  std::string name;     // unique; import names unnamed nodes "<op>_<index>"
  std::string op_type;  // ONNX op name, e.g. "Conv"
  std::string domain;   // "" for the default ONNX domain
  std::vector<std::string> inputs;   // "" marks an omitted optional input
  std::vector<std::string> outputs;
  std::map<std::string, AttributeValue> attributes;
  // Control flow (If: "then_branch", "else_branch"): each branch as a graph
  // of its own whose inputs are the outer tensors it reads, bound by
  // position to inputs[1...] (inputs[0] is the condition); every branch of
  // a node lists the same inputs. Its outputs are the node's, in order.
  // Shared, never edited after import: copies of a node share them.
  std::map<std::string, std::shared_ptr<const Graph>> subgraphs;

  // Typed attribute reads with defaults; a wrong type yields the default.
  int64_t GetInt(const std::string& key, int64_t fallback) const;
  float GetFloat(const std::string& key, float fallback) const;
  std::string GetString(const std::string& key, const std::string& fallback) const;
  std::vector<int64_t> GetInts(const std::string& key, std::vector<int64_t> fallback = {}) const;
  std::vector<float> GetFloats(const std::string& key, std::vector<float> fallback = {}) const;
  bool HasAttribute(const std::string& key) const { return attributes.count(key) != 0; }
};

struct Graph {
  std::string name;
  int64_t opset = 0;  // default-domain opset the model declares
  std::map<std::string, Tensor> tensors;
  std::vector<Node> nodes;           // topological order = execution order
  std::vector<std::string> inputs;   // graph inputs that are not constants
  std::vector<std::string> outputs;

  const Tensor* FindTensor(const std::string& name) const;
  Tensor* FindTensor(const std::string& name);
};

// Human-readable dump for debugging: one line per node with shapes.
void PrintGraph(const Graph& graph, std::ostream& out);

}  // namespace glpool
