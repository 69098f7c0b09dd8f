// Runs qualifying Convs as Winograd's F(4x4, 3x3) in three tasks
// (graph/winograd.h): an input transform, a 1x1 Conv in 36 groups (the
// 36 matrix products, on the Conv kernel's grouped path) and an output
// transform that adds the bias and the residual and applies the Conv's
// fused activation. The GPU session applies it (executor.cc) to fp32
// buffers: the transforms scale values by up to 100 and 8, which half
// precision would not keep.
#include <set>
#include <string>
#include <vector>

#include "gpu_backend/graph/passes/node_builder.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/graph/winograd.h"

namespace glpool {
namespace {

bool AllEqual(const std::vector<int64_t>& values, size_t count, int64_t value) {
  if (values.empty()) return true;  // ONNX's default
  if (values.size() != count) return false;
  for (int64_t v : values) {
    if (v != value) return false;
  }
  return true;
}

// The Conv's pads when it qualifies: 2-D, 3x3, stride 1, no dilation, one
// group, constant weights and bias, no fused channel gate, explicit pads of
// at most 2 (the input tile starts at most 2 before the image), and
// channels and size enough for the matrix products to pay.
bool Qualifies(const Graph& graph, const Node& node, std::vector<int64_t>* pads) {
  if (node.op_type != "Conv" || node.inputs.size() < 2 || node.outputs.size() != 1) return false;
  if (node.inputs.size() > 3 && !node.inputs[3].empty()) return false;  // a channel gate
  const Tensor* x = graph.FindTensor(node.inputs[0]);
  const Tensor* w = graph.FindTensor(node.inputs[1]);
  const Tensor* b = node.inputs.size() > 2 && !node.inputs[2].empty() ? graph.FindTensor(node.inputs[2]) : nullptr;
  const Tensor* y = graph.FindTensor(node.outputs[0]);
  if (!x || !w || !y || !w->is_constant || (node.inputs.size() > 2 && !node.inputs[2].empty() && (!b || !b->is_constant))) {
    return false;
  }
  if (x->dtype != DataType::kFloat32 || y->dtype != DataType::kFloat32 || w->dtype != DataType::kFloat32) return false;
  if (x->shape.size() != 4 || w->shape.size() != 4 || y->shape.size() != 4) return false;
  if (w->shape[2] != 3 || w->shape[3] != 3 || w->shape[1] != x->shape[1] || w->shape[0] != y->shape[1]) return false;
  if (node.GetInt("group", 1) != 1 || !AllEqual(node.GetInts("strides"), 2, 1) ||
      !AllEqual(node.GetInts("dilations"), 2, 1)) {
    return false;
  }
  const std::string auto_pad = node.GetString("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && !auto_pad.empty()) return false;
  std::vector<int64_t> p = node.GetInts("pads", {0, 0, 0, 0});
  if (p.size() != 4) return false;
  for (int64_t v : p) {
    if (v < 0 || v > 2) return false;
  }
  if (y->shape[2] != x->shape[2] + p[0] + p[2] - 2 || y->shape[3] != x->shape[3] + p[1] + p[3] - 2) return false;
  if (x->shape[1] < kMinWinogradChannels || y->shape[1] < kMinWinogradOutputChannels) return false;
  if (y->shape[2] < kMinWinogradSize || y->shape[3] < kMinWinogradSize) return false;
  *pads = {p[0], p[1]};
  return true;
}

}  // namespace

StatusOr<int> RewriteConvsAsWinograd(Graph& graph) {
  // Qualifies runs once per Conv: a Conv it turns down is kept as it is.
  return LowerNodes(
      graph, [](const Node& node) { return node.op_type == "Conv"; },
      [&](const Node& node, std::set<std::string>& node_names) -> std::vector<Node> {
        std::vector<int64_t> pads;
        if (!Qualifies(graph, node, &pads)) return {};
        const Tensor& x = *graph.FindTensor(node.inputs[0]);
        const Tensor& w = *graph.FindTensor(node.inputs[1]);
        const Shape y_shape = graph.FindTensor(node.outputs[0])->shape;
        const int64_t n = x.shape[0], c = x.shape[1], k = y_shape[1], oh = y_shape[2], ow = y_shape[3];
        const int64_t th = (oh + kWinogradOutputTile - 1) / kWinogradOutputTile;
        const int64_t tw = (ow + kWinogradOutputTile - 1) / kWinogradOutputTile;
        const int64_t cp = WinogradPaddedChannels(c), kp = WinogradPaddedChannels(k);
        NodeBuilder b(graph, node.name, node_names);
        const std::string v = b.NewTensor("winograd_input", {n, kWinogradElements * cp, th, tw});
        const std::string m = b.NewTensor("winograd_products", {n, kWinogradElements * kp, th, tw});
        const std::string u = b.Constant("winograd_weights",
                                         TensorData::FromFloats({kWinogradElements * kp, cp, 1, 1},
                                                                WinogradWeights(w.data.ToFloats(), k, c)));
        Node& input = b.Add("WinogradInputTransform", {node.inputs[0]}, v);
        input.attributes["pads"] = pads;
        input.attributes["tiles"] = std::vector<int64_t>{th, tw};
        Node& products = b.Add("Conv", {v, u}, m);
        products.attributes["group"] = int64_t{kWinogradElements};
        products.attributes["kernel_shape"] = std::vector<int64_t>{1, 1};
        // The bias, the residual and the fused activation (every attribute
        // the passes put on the Conv) go to the output transform.
        std::vector<std::string> inputs = {m, node.inputs.size() > 2 ? node.inputs[2] : ""};
        if (node.inputs.size() > 4 && !node.inputs[4].empty()) inputs.push_back(node.inputs[4]);
        Node& output = b.Add("WinogradOutputTransform", inputs, node.outputs[0]);
        output.attributes = node.attributes;
        for (const char* conv_only : {"kernel_shape", "strides", "dilations", "pads", "auto_pad", "group"}) {
          output.attributes.erase(conv_only);
        }
        output.attributes["output_shape"] = std::vector<int64_t>{k, oh, ow};
        return b.TakeNodes();
      });
}

}  // namespace glpool
