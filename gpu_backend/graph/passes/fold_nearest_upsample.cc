// FoldNearestUpsampleIntoElementwise (passes.h): a nearest Resize by whole
// factors whose output only an elementwise Add, Sub, Mul or Div reads (a
// feature pyramid's top-down path: x + upsample(y), as PP-OCRv4 det and
// U-Net-like decoders write it) is read through by that op instead
// (graph.h kNearestUpsampledInputAttr): the op loads y at (h / fy, w / fx),
// so the upsampled tensor is never written and its task goes.
#include <string>

#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/resize_rule.h"

namespace glpool {
namespace {

bool IsFloat32Rank4(const Tensor* t) {
  return t != nullptr && t->dtype == DataType::kFloat32 && t->shape.size() == 4;
}

// Whether every output coordinate of an axis resized from `in` to `out` =
// factor x in cells reads cell o / factor under the node's rule.
bool ReadsWholeFactor(const ResizeRule& rule, double scale, int64_t in, int64_t out, int64_t factor) {
  for (int64_t o = 0; o < out; ++o) {
    int64_t source = NearestResizeSource(rule, ResizeSourceCoordinate(rule, o, scale, in, out, 0.0, 1.0), scale);
    source = source < 0 ? 0 : source >= in ? in - 1 : source;
    if (source != o / factor) return false;
  }
  return true;
}

// The whole factors {fy, fx} by which `resize` (4-D, fp32) upsamples its
// input's H and W with nearest cells, each output cell reading cell
// (h / fy, w / fx); false when it is anything else.
bool WholeFactorNearestUpsample(const Graph& graph, const Node& resize, int64_t* fy, int64_t* fx) {
  if (!resize.domain.empty() || (resize.op_type != "Resize" && resize.op_type != "Upsample") ||
      resize.inputs.empty() || resize.outputs.size() != 1) {
    return false;
  }
  const Tensor* in = graph.FindTensor(resize.inputs[0]);
  const Tensor* out = graph.FindTensor(resize.outputs[0]);
  if (!IsFloat32Rank4(in) || !IsFloat32Rank4(out) || in->shape[0] != out->shape[0] || in->shape[1] != out->shape[1]) {
    return false;
  }
  for (size_t d = 2; d < 4; ++d) {
    if (in->shape[d] < 1 || out->shape[d] % in->shape[d] != 0) return false;
  }
  ResizeRule rule;
  std::vector<double> scales;
  std::vector<float> roi;
  if (!ReadResizeRule(graph, resize, rule, scales, roi).ok() || rule.mode != "nearest" || scales.size() != 4 ||
      rule.transform == "tf_crop_and_resize" || scales[0] != 1.0 || scales[1] != 1.0) {
    return false;
  }
  *fy = out->shape[2] / in->shape[2];
  *fx = out->shape[3] / in->shape[3];
  if (*fy == 1 && *fx == 1) return false;
  return ReadsWholeFactor(rule, scales[2], in->shape[2], out->shape[2], *fy) &&
         ReadsWholeFactor(rule, scales[3], in->shape[3], out->shape[3], *fx);
}

}  // namespace

StatusOr<int> FoldNearestUpsampleIntoElementwise(Graph& graph) {
  int folded = 0;
  std::map<std::string, int> readers = CountReaders(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    int64_t fy = 0, fx = 0;
    if (!WholeFactorNearestUpsample(graph, graph.nodes[i], &fy, &fx)) continue;
    const std::string small = graph.nodes[i].inputs[0];
    const std::string upsampled = graph.nodes[i].outputs[0];
    const long reader = OnlyReader(graph, readers, upsampled);
    if (reader < 0) continue;
    Node& op = graph.nodes[static_cast<size_t>(reader)];
    if ((!IsBinaryOfTwo(op, "Add") && !IsBinaryOfTwo(op, "Sub") && !IsBinaryOfTwo(op, "Mul") &&
         !IsBinaryOfTwo(op, "Div")) ||
        op.HasAttribute(kNearestUpsampledInputAttr)) {
      continue;
    }
    // The other operand and the result have the upsampled shape: no
    // broadcast besides the upsample.
    const size_t k = op.inputs[0] == upsampled ? 0 : 1;
    const Tensor* up = graph.FindTensor(upsampled);
    const Tensor* other = graph.FindTensor(op.inputs[1 - k]);
    const Tensor* result = graph.FindTensor(op.outputs[0]);
    if (!IsFloat32Rank4(other) || !IsFloat32Rank4(result) || other->shape != up->shape ||
        result->shape != up->shape) {
      continue;
    }
    op.inputs[k] = small;
    op.attributes[kNearestUpsampledInputAttr] = std::vector<int64_t>{static_cast<int64_t>(k), fy, fx};
    graph.tensors.erase(upsampled);
    EraseNodes(graph, {i});
    ++folded;
    --i;
    readers = CountReaders(graph);
  }
  return folded;
}

}  // namespace glpool
