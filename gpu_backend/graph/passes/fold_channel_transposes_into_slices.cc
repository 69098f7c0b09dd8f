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
#include "gpu_backend/import/node_view.h"
#include "gpu_backend/import/shape_ops.h"

namespace glpool {
namespace {

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
  const StatusOr<CopyView> view = TransposeView(read_as, PermOrReversed(node.GetInts("perm"), read_as.size()));
  if (!view.ok()) return std::nullopt;
  return ChannelMapOf(LayoutOf(in->shape), LayoutOf(out->shape), *view);
}

// The first channel, step and count of a Slice of images that cuts along C
// only (every other dim whole, a positive step; its operands read as the
// Slice kernel reads them, shape_ops.h ReadSlice); nullopt otherwise.
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
  const StatusOr<SliceRange> range = ReadSlice(NodeView(graph, node));
  if (!range.ok() || range->count != out->shape) return std::nullopt;
  for (size_t d = 0; d < 4; ++d) {
    if (d != 1 && (range->start[d] != 0 || range->step[d] != 1 || range->count[d] != in->shape[d])) {
      return std::nullopt;
    }
  }
  if (range->step[1] <= 0 || range->count[1] <= 0) return std::nullopt;
  return ChannelSlice{range->start[1], range->step[1], range->count[1]};
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
