// FoldChannelTransposesIntoSlices (passes.h): a Transpose that only moves
// channels, read only by Slices along C, goes; each Slice becomes a Gather
// along C of the Transpose's input with the two channel maps composed.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpu_backend/graph/channel_map.h"
#include "gpu_backend/graph/passes/graph_edit.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/graph/phwc4_layout.h"

namespace glpool {
namespace {

std::vector<int64_t> RowMajor(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

// Output channel -> input channel of a Transpose (its folded reshapes
// included) on images [N, C, H, W]; nullopt unless it moves channels only.
std::optional<std::vector<int64_t>> TransposeChannelMap(const Graph& graph, const Node& node) {
  if (!node.domain.empty() || node.op_type != "Transpose" || node.inputs.size() != 1 || node.outputs.size() != 1 ||
      HasFusedEpilogue(node)) {
    return std::nullopt;
  }
  const Tensor* in = graph.FindTensor(node.inputs[0]);
  const Tensor* out = graph.FindTensor(node.outputs[0]);
  if (!in || !out || in->is_constant || in->shape.size() != 4 || out->shape.size() != 4) return std::nullopt;
  const Shape read_as = node.GetInts(kReadInputAsAttr, in->shape);
  if (ElementCount(read_as) != ElementCount(in->shape)) return std::nullopt;
  std::vector<int64_t> perm = node.GetInts("perm");
  if (perm.empty()) {
    for (size_t d = read_as.size(); d-- > 0;) perm.push_back(static_cast<int64_t>(d));
  }
  if (perm.size() != read_as.size()) return std::nullopt;
  const std::vector<int64_t> strides = RowMajor(read_as);
  CopyView view;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(read_as.size())) return std::nullopt;
    view.shape.push_back(read_as[static_cast<size_t>(p)]);
    view.strides.push_back(strides[static_cast<size_t>(p)]);
  }
  return ChannelMapOf(LayoutOf(in->shape), LayoutOf(out->shape), view);
}

// A constant int tensor's values; empty when there is none.
std::vector<int64_t> ConstantInts(const Graph& graph, const std::string& name) {
  const Tensor* t = name.empty() ? nullptr : graph.FindTensor(name);
  if (!t || !t->is_constant) return {};
  return t->data.ToInt64s();
}

// The first channel and the step of a Slice of images that cuts along C
// only (every other dim whole, a positive step); nullopt otherwise.
struct ChannelSlice {
  int64_t start = 0, step = 1, count = 0;
};
std::optional<ChannelSlice> ChannelSliceOf(const Graph& graph, const Node& node) {
  if (!node.domain.empty() || node.op_type != "Slice" || node.outputs.size() != 1 || HasFusedEpilogue(node)) {
    return std::nullopt;
  }
  const Tensor* in = graph.FindTensor(node.inputs[0]);
  const Tensor* out = graph.FindTensor(node.outputs[0]);
  if (!in || !out || in->shape.size() != 4 || out->shape.size() != 4) return std::nullopt;
  // Opset 10 on: starts, ends, axes, steps are inputs (constant here);
  // before: attributes, no steps.
  std::vector<int64_t> starts, axes, steps;
  if (node.inputs.size() >= 3) {
    starts = ConstantInts(graph, node.inputs[1]);
    if (ConstantInts(graph, node.inputs[2]).size() != starts.size()) return std::nullopt;
    axes = node.inputs.size() > 3 ? ConstantInts(graph, node.inputs[3]) : std::vector<int64_t>{};
    steps = node.inputs.size() > 4 ? ConstantInts(graph, node.inputs[4]) : std::vector<int64_t>{};
    if ((node.inputs.size() > 3 && !node.inputs[3].empty() && axes.size() != starts.size()) ||
        (node.inputs.size() > 4 && !node.inputs[4].empty() && steps.size() != starts.size())) {
      return std::nullopt;
    }
  } else if (node.inputs.size() == 1) {
    starts = node.GetInts("starts");
    axes = node.GetInts("axes");
  } else {
    return std::nullopt;
  }
  if (starts.empty()) return std::nullopt;
  if (axes.empty()) {
    for (size_t d = 0; d < starts.size(); ++d) axes.push_back(static_cast<int64_t>(d));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size()) return std::nullopt;
  // Every dim but C keeps its extent (the output's shape, from import, says
  // how many elements each takes).
  for (size_t d = 0; d < 4; ++d) {
    if (d != 1 && out->shape[d] != in->shape[d]) return std::nullopt;
  }
  ChannelSlice slice;
  slice.count = out->shape[1];
  const int64_t channels = in->shape[1];
  for (size_t k = 0; k < axes.size(); ++k) {
    const int64_t axis = axes[k] < 0 ? axes[k] + 4 : axes[k];
    if (axis != 1) {
      if (axis < 0 || axis > 3 || steps[k] != 1) return std::nullopt;  // whole dims only (count checked above)
      continue;
    }
    if (steps[k] <= 0) return std::nullopt;
    int64_t start = starts[k] < 0 ? starts[k] + channels : starts[k];
    slice.start = std::min(std::max<int64_t>(start, 0), channels);
    slice.step = steps[k];
  }
  if (slice.count <= 0 || slice.start + (slice.count - 1) * slice.step >= channels) return std::nullopt;
  return slice;
}

}  // namespace

StatusOr<int> FoldChannelTransposesIntoSlices(Graph& graph) {
  std::map<std::string, std::vector<size_t>> readers_of;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    for (const std::string& in : graph.nodes[n].inputs) {
      if (!in.empty()) readers_of[in].push_back(n);
    }
  }
  std::set<size_t> drop;
  int folded = 0;
  for (size_t t = 0; t < graph.nodes.size(); ++t) {
    const Node& transpose = graph.nodes[t];
    if (transpose.op_type != "Transpose" || transpose.outputs.size() != 1) continue;
    const std::string& shuffled = transpose.outputs[0];
    auto readers = readers_of.find(shuffled);
    if (readers == readers_of.end() || IsGraphOutput(graph, shuffled)) continue;
    const std::optional<std::vector<int64_t>> map = TransposeChannelMap(graph, transpose);
    if (!map) continue;
    // Every reader a Slice along C of the shuffled tensor (read as its data).
    std::vector<std::pair<size_t, ChannelSlice>> slices;
    for (size_t r : readers->second) {
      const Node& reader = graph.nodes[r];
      std::optional<ChannelSlice> slice;
      if (reader.inputs[0] == shuffled &&
          std::count(reader.inputs.begin(), reader.inputs.end(), shuffled) == 1) {
        slice = ChannelSliceOf(graph, reader);
      }
      if (!slice) break;
      slices.emplace_back(r, *slice);
    }
    if (slices.size() != readers->second.size()) continue;
    const std::string source = transpose.inputs[0];
    for (const auto& [r, slice] : slices) {
      Node& node = graph.nodes[r];
      std::vector<int64_t> channels;
      for (int64_t j = 0; j < slice.count; ++j) {
        channels.push_back((*map)[static_cast<size_t>(slice.start + j * slice.step)]);
      }
      const std::string indices = UniqueTensorName(graph, node.name + "_channels");
      AddConstantTensor(graph, indices, TensorData::FromInt64s({slice.count}, channels));
      node.op_type = "Gather";
      node.inputs = {source, indices};
      node.attributes.clear();
      node.attributes["axis"] = int64_t{1};
    }
    drop.insert(t);
    ++folded;
  }
  EraseNodes(graph, drop);
  return folded;
}

}  // namespace glpool
