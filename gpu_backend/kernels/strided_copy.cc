// Copies whose every output element is one input element at a strided
// position (shaders/strided_copy.comp): Transpose, Slice, Split,
// DepthToSpace, SpaceToDepth, Expand, Tile, and Reshape / Flatten / Squeeze / Unsqueeze
// when the graph could not alias them (the PHWC4 layout changes), Identity,
// and inference Dropout (its optional mask output all ones: true).
//
// Each output gets a "view": its logical shape refined into at most 8 dims
// (DepthToSpace splits H into H x block, say) with, per view dim, the input
// flat-index stride one step along it moves, plus a base offset.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/graph/channel_map.h"
#include "gpu_backend/import/node_view.h"
#include "gpu_backend/import/shape_ops.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"
#include "gpu_backend/kernels/logical_index.h"

namespace glpool {
namespace {

constexpr size_t kMaxOutputs = 7;  // in0 + 7 outputs: 8 bindings, as concat

using View = CopyView;

// The groups a copy dispatches: enough for the largest output (each output
// keeps its own part, the shaders check).
std::array<uint32_t, 3> GroupsOverOutputs(const Graph& graph, const std::vector<const Tensor*>& outs,
                                          std::array<uint32_t, 3> local) {
  std::array<uint32_t, 3> groups{1, 1, 1};
  for (const Tensor* out : outs) {
    const std::array<uint32_t, 3> covered = GroupsOverOutput(graph, out->name, local);
    for (int a = 0; a < 3; ++a) groups[a] = std::max(groups[a], covered[a]);
  }
  return groups;
}

}  // namespace

std::optional<KernelPlan> PlanChannelTable(const Graph& graph, const Node& node, const Tensor& in,
                                           const std::vector<const Tensor*>& outs,
                                           const std::vector<std::vector<int64_t>>& maps) {
  if (outs.size() != maps.size() || outs.size() > kMaxOutputs) return std::nullopt;
  KernelPlan plan;
  plan.shader = "channel_copy";
  plan.inputs = {in.name};
  std::vector<float> table;
  std::vector<int64_t> bases;
  const Phwc4Layout in_layout = LayoutOf(in.shape);
  for (size_t j = 0; j < outs.size(); ++j) {
    const Phwc4Layout out = LayoutOf(outs[j]->shape);
    const std::vector<int64_t>& map = maps[j];
    if (out.n != in_layout.n || out.h != in_layout.h || out.w != in_layout.w ||
        static_cast<int64_t>(map.size()) != out.c) {
      return std::nullopt;
    }
    bases.push_back(static_cast<int64_t>(table.size() / 4));
    table.resize(table.size() + static_cast<size_t>(out.slices() * 4), 0.0f);  // padding lanes read channel 0
    for (size_t c = 0; c < map.size(); ++c) {
      if (map[c] < 0 || map[c] >= in_layout.c) return std::nullopt;
      table[static_cast<size_t>(bases.back() * 4) + c] = static_cast<float>(map[c]);
    }
    plan.outputs.push_back(outs[j]->name);
  }
  plan.weights.push_back({"channel_map", std::move(table)});
  plan.defines = {{"MAP_BASES", GlslIntArray(bases, kMaxOutputs)}};
  if (!AddFusedActivationDefines(node, plan).ok()) return std::nullopt;
  plan.groups = GroupsOverOutputs(graph, outs, plan.local_size);
  return plan;
}

namespace {

// The channel_copy plan when every output only moves channels
// (channel_map.h); nullopt otherwise.
std::optional<KernelPlan> PlanChannelCopy(const Graph& graph, const Node& node, const Tensor& in,
                                          const std::vector<const Tensor*>& outs, const std::vector<View>& views) {
  const Phwc4Layout in_layout = LayoutOf(in.shape);
  std::vector<std::vector<int64_t>> maps;
  for (size_t j = 0; j < outs.size(); ++j) {
    std::optional<std::vector<int64_t>> map = ChannelMapOf(in_layout, LayoutOf(outs[j]->shape), views[j]);
    if (!map) return std::nullopt;
    maps.push_back(std::move(*map));
  }
  return PlanChannelTable(graph, node, in, outs, maps);
}

// `ones_output`: the index of an output stored as all ones instead of a
// copy (inference Dropout's mask), or -1.
StatusOr<KernelPlan> PlanCopy(const Graph& graph, const Node& node, const Tensor& in,
                              const std::vector<const Tensor*>& outs, const std::vector<View>& views, bool texel,
                              int ones_output = -1) {
  if (outs.size() > kMaxOutputs) {
    return UnsupportedError(std::to_string(outs.size()) + " outputs; the GPU kernel writes at most " +
                            std::to_string(kMaxOutputs));
  }
  GLPOOL_RETURN_IF_ERROR(CheckIndexable(in.shape));
  // Channel shuffles and Slices inside a slice read a table instead of
  // working out an 8-dim index per lane: shufflenet_v2_x1_0's 16 shuffles
  // 6-7 ms -> 3.8 ms of task time, one llvmpipe thread; in-process A/B
  // 28.3 -> 25.6 ms per run (25th percentile of 12), the same bits.
  if (!texel && ones_output < 0) {
    if (std::optional<KernelPlan> channels = PlanChannelCopy(graph, node, in, outs, views)) return *channels;
  }
  KernelPlan plan;
  plan.shader = "strided_copy";
  plan.inputs = {in.name};
  std::vector<int64_t> shapes, strides, bases;
  for (size_t j = 0; j < kMaxOutputs; ++j) {
    std::vector<int64_t> shape(kMaxMappedRank, 1), stride(kMaxMappedRank, 0);
    if (j < outs.size()) {
      GLPOOL_RETURN_IF_ERROR(CheckIndexable(outs[j]->shape));
      const View& view = views[j];
      if (view.shape.size() > kMaxMappedRank) {
        return UnsupportedError("rank " + std::to_string(view.shape.size()) + " is above the GPU kernel's " +
                                std::to_string(kMaxMappedRank));
      }
      if (ElementCount(view.shape) != ElementCount(outs[j]->shape)) return InternalError("view does not cover output");
      // Leading 1s: the shader walks the view from its last (fastest) dim.
      const size_t pad = kMaxMappedRank - view.shape.size();
      std::copy(view.shape.begin(), view.shape.end(), shape.begin() + pad);
      std::copy(view.strides.begin(), view.strides.end(), stride.begin() + pad);
      plan.outputs.push_back(outs[j]->name);
    }
    shapes.insert(shapes.end(), shape.begin(), shape.end());
    strides.insert(strides.end(), stride.begin(), stride.end());
    bases.push_back(j < outs.size() ? views[j].base : 0);
  }
  plan.defines = {{"TEXEL", texel ? "1" : "0"},
                  {"VIEW_SHAPES", GlslIntArray(shapes, shapes.size())},
                  {"VIEW_STRIDES", GlslIntArray(strides, strides.size())},
                  {"VIEW_BASES", GlslIntArray(bases, bases.size())},
                  {"ONES_OUTPUT", std::to_string(ones_output)}};
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));
  plan.groups = GroupsOverOutputs(graph, outs, plan.local_size);
  return plan;
}

// The channel axis (PHWC4 C) of a rank-r shape.
size_t ChannelDim(size_t rank) { return rank == 1 ? 0 : 1; }

// Reshapes folded in (graph.h kReadInputAsAttr, kWriteOutputAsAttr) only
// relabel shapes: the view walks the transpose of the input read as its
// "read as" shape, in row-major order, which is the output's order under
// any shape of the same size.
StatusOr<KernelPlan> BuildTranspose(const Graph& graph, const Node& node, const Tensor& in, const Tensor& out) {
  const Shape read_as = node.GetInts(kReadInputAsAttr, in.shape);
  if (ElementCount(read_as) != ElementCount(in.shape)) {
    return InvalidModelError("input '" + in.name + "' " + ShapeToString(in.shape) + " cannot be read as " +
                             ShapeToString(read_as));
  }
  const size_t rank = read_as.size();
  const std::vector<int64_t> perm = PermOrReversed(node.GetInts("perm"), rank);
  GLPOOL_ASSIGN_OR_RETURN(const View view, TransposeView(read_as, perm));
  // The whole-texel path needs channels to stay channels in both real shapes.
  const bool relabelled = node.HasAttribute(kReadInputAsAttr) || node.HasAttribute(kWriteOutputAsAttr);
  const bool texel = !relabelled && (rank <= 1 || perm[1] == 1);
  return PlanCopy(graph, node, in, {&out}, {view}, texel);
}

StatusOr<KernelPlan> BuildSlice(const Graph& graph, const Node& node, const Tensor& in, const Tensor& out) {
  const size_t rank = in.shape.size();
  if (out.shape.size() != rank) return InvalidModelError("output rank differs from the input's");
  // The same clamping import used for the output's shape (shape_ops.h):
  // starts, ends and steps as ONNX defines them, steps longer than the axis
  // shortened so the shader's 32-bit ints never see -2^63.
  GLPOOL_ASSIGN_OR_RETURN(const SliceRange range, ReadSlice(NodeView(graph, node)));
  if (range.count != out.shape) {
    return InvalidModelError("slice of " + ShapeToString(in.shape) + " gives " + ShapeToString(range.count) +
                             ", the graph says " + ShapeToString(out.shape));
  }
  const std::vector<int64_t> in_strides = RowMajorStrides(in.shape);
  View view{out.shape, in_strides, 0};
  const std::vector<int64_t>& first = range.start;
  const std::vector<int64_t>& step = range.step;
  for (size_t d = 0; d < rank; ++d) {
    view.strides[d] = in_strides[d] * step[d];
    if (out.shape[d] > 0) view.base += first[d] * in_strides[d];
  }
  const size_t channel = ChannelDim(rank);
  const bool texel = rank == 0 || (step[channel] == 1 && first[channel] % 4 == 0);
  return PlanCopy(graph, node, in, {&out}, {view}, texel);
}

StatusOr<KernelPlan> BuildSplit(const Graph& graph, const Node& node, const Tensor& in,
                                const std::vector<const Tensor*>& outs) {
  const size_t rank = in.shape.size();
  GLPOOL_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(node.GetInt("axis", 0), rank));
  // The graph's output shapes already say where each part starts.
  const std::vector<int64_t> in_strides = RowMajorStrides(in.shape);
  std::vector<View> views;
  int64_t offset = 0;
  bool texel = true;
  for (const Tensor* out : outs) {
    if (out->shape.size() != rank) return InvalidModelError("output rank differs from the input's");
    views.push_back({out->shape, in_strides, offset * in_strides[axis]});
    if (static_cast<size_t>(axis) == ChannelDim(rank) && offset % 4 != 0) texel = false;
    offset += out->shape[axis];
  }
  if (offset > in.shape[axis]) return InvalidModelError("outputs exceed the input along the split axis");
  return PlanCopy(graph, node, in, outs, views, texel);
}

// DepthToSpace (DCR or CRD) and SpaceToDepth, NCHW only.
StatusOr<KernelPlan> BuildBlockMove(const Graph& graph, const Node& node, const Tensor& in, const Tensor& out) {
  if (in.shape.size() != 4 || out.shape.size() != 4) return InvalidModelError("needs 4-D input and output");
  const int64_t b = node.GetInt("blocksize", 0);
  if (b < 1) return InvalidModelError("blocksize must be positive");
  const std::vector<int64_t> s = RowMajorStrides(in.shape);  // sN, sC, sH, sW
  View view;
  if (node.op_type == "DepthToSpace") {
    const int64_t c = out.shape[1], h = in.shape[2], w = in.shape[3];
    // Output [N, C, H*b, W*b] viewed as [N, C, H, b1, W, b2].
    view.shape = {out.shape[0], c, h, b, w, b};
    if (node.GetString("mode", "DCR") == "CRD") {
      view.strides = {s[0], b * b * s[1], s[2], b * s[1], s[3], s[1]};  // channel (c * b + b1) * b + b2
    } else {
      view.strides = {s[0], s[1], s[2], b * c * s[1], s[3], c * s[1]};  // channel (b1 * b + b2) * C + c
    }
  } else {
    const int64_t c = in.shape[1], h = out.shape[2], w = out.shape[3];
    // Output [N, C*b*b, H, W] viewed as [N, b1, b2, C, H, W]; input
    // (n, c, h * b + b1, w * b + b2).
    view.shape = {out.shape[0], b, b, c, h, w};
    view.strides = {s[0], s[2], s[3], s[1], b * s[2], b * s[3]};
  }
  return PlanCopy(graph, node, in, {&out}, {view}, false);
}

// Expand (numpy broadcasting: stride 0 along broadcast dims) and Tile
// (each output dim viewed as repeats x input dim, the repeats with stride 0).
StatusOr<KernelPlan> BuildRepeat(const Graph& graph, const Node& node, const Tensor& in, const Tensor& out) {
  const size_t rank = out.shape.size();
  if (in.shape.size() > rank) return InvalidModelError("input rank above the output's");
  const size_t lead = rank - in.shape.size();
  const std::vector<int64_t> in_strides = RowMajorStrides(in.shape);
  View view;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t in_dim = d < lead ? 1 : in.shape[d - lead];
    const int64_t stride = d < lead ? 0 : in_strides[d - lead];
    if (node.op_type == "Expand") {
      if (in_dim != out.shape[d] && in_dim != 1) return InvalidModelError("input does not broadcast to the output");
      view.shape.push_back(out.shape[d]);
      view.strides.push_back(in_dim == 1 ? 0 : stride);
    } else {
      if (in_dim == 0 || out.shape[d] % in_dim != 0) return InvalidModelError("output is no tiling of the input");
      view.shape.insert(view.shape.end(), {out.shape[d] / in_dim, in_dim});
      view.strides.insert(view.strides.end(), {0, stride});
    }
  }
  // Lane by lane unless the channel dim is copied whole from the input's
  // own channel dim (a lower-rank input may hold it in another PHWC4 axis).
  const size_t channel = ChannelDim(rank);
  const bool texel = rank == 0 || (channel >= lead && channel - lead == ChannelDim(in.shape.size()) &&
                                    in.shape[channel - lead] == out.shape[channel]);
  return PlanCopy(graph, node, in, {&out}, {view}, texel);
}

StatusOr<KernelPlan> BuildReshapeCopy(const Graph& graph, const Node& node, const Tensor& in, const Tensor& out) {
  if (ElementCount(in.shape) != ElementCount(out.shape)) return InvalidModelError("element counts differ");
  const Phwc4Layout a = LayoutOf(in.shape), b = LayoutOf(out.shape);
  // Row-major order is kept; with N and C equal, channel c stays channel c.
  const bool texel = a.n == b.n && a.c == b.c;
  return PlanCopy(graph, node, in, {&out}, {View{{ElementCount(out.shape)}, {1}, 0}}, texel);
}

// Inference Dropout: output 0 a copy, the optional mask (output 1) all true.
StatusOr<KernelPlan> BuildDropout(const Graph& graph, const Node& node, const Tensor& in,
                                  const std::vector<const Tensor*>& outs) {
  GLPOOL_ASSIGN_OR_RETURN(std::vector<int64_t> training, ConstantInts(graph, node, 2, {0}));
  GLPOOL_ASSIGN_OR_RETURN(std::vector<float> ratio, ConstantFloats(graph, node, 1, {0.5f}));
  if (graph.opset >= 12 && !training.empty() && training[0] != 0 && !ratio.empty() && ratio[0] != 0.0f) {
    return UnsupportedError("training-mode Dropout has no GPU kernel");
  }
  if (node.outputs[0].empty()) return UnsupportedError("Dropout without its output 0");
  for (const Tensor* out : outs) {
    if (out->shape != in.shape) return InvalidModelError("output '" + out->name + "' differs from the input's shape");
  }
  const View copy{{ElementCount(in.shape)}, {1}, 0};
  return PlanCopy(graph, node, in, outs, std::vector<View>(outs.size(), copy), /*texel=*/true,
                  outs.size() > 1 ? 1 : -1);
}

}  // namespace

StatusOr<KernelPlan> BuildStridedCopy(const Graph& graph, const Node& node, const KernelLimits&) {
  if (node.inputs.empty() || node.outputs.empty()) return InvalidModelError("needs an input and an output");
  GLPOOL_ASSIGN_OR_RETURN(const Tensor* in, RequireTensor(graph, node.inputs[0]));
  GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*in));
  std::vector<const Tensor*> outs;
  for (const std::string& name : node.outputs) {
    if (name.empty() && node.op_type == "Dropout") continue;  // no mask wanted
    if (name.empty()) return UnsupportedError("omitted outputs are not supported");
    GLPOOL_ASSIGN_OR_RETURN(const Tensor* out, RequireTensor(graph, name));
    GLPOOL_RETURN_IF_ERROR(RequireGpuStorable(*out));
    outs.push_back(out);
  }
  const std::string& op = node.op_type;
  if (op == "Dropout") return BuildDropout(graph, node, *in, outs);
  if (op == "Split") return BuildSplit(graph, node, *in, outs);
  if (outs.size() != 1) return InvalidModelError("needs exactly one output");
  if (op == "Transpose") return BuildTranspose(graph, node, *in, *outs[0]);
  if (op == "Slice") return BuildSlice(graph, node, *in, *outs[0]);
  if (op == "DepthToSpace" || op == "SpaceToDepth") return BuildBlockMove(graph, node, *in, *outs[0]);
  if (op == "Expand" || op == "Tile") return BuildRepeat(graph, node, *in, *outs[0]);
  return BuildReshapeCopy(graph, node, *in, *outs[0]);
}

}  // namespace glpool
