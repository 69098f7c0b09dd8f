// Every kernel descriptor's build function, listed once for registry.cc.
#pragma once

#include <optional>
#include <vector>

#include "gpu_backend/kernels/kernel.h"

namespace glpool {

// Broadcasting arithmetic, variadic Sum/Mean/Max/Min, comparisons, logic, Where.
StatusOr<KernelPlan> BuildElementwiseBinary(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildPool(const Graph& graph, const Node& node, const KernelLimits& limits);
// The mean (or max) of each (image, channel) plane of `in`, written to
// `out` of shape [N, C] or [N, C, 1, 1] (one PHWC4 layout): GlobalAveragePool,
// GlobalMaxPool, and ReduceMean/ReduceMax over a 4-D tensor's H and W.
StatusOr<KernelPlan> BuildGlobalPoolPlan(const Tensor& in, const Tensor& out, bool max, const KernelLimits& limits);
StatusOr<KernelPlan> BuildConcat(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildResize(const Graph& graph, const Node& node, const KernelLimits& limits);
// One-input math and activations, PRelu, Not, Cast, CastLike.
StatusOr<KernelPlan> BuildElementwiseUnary(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildConv(const Graph& graph, const Node& node, const KernelLimits& limits);
// The internal ops of a Conv run as Winograd's F(4x4, 3x3) (graph/winograd.h).
StatusOr<KernelPlan> BuildWinogradInputTransform(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildWinogradOutputTransform(const Graph& graph, const Node& node, const KernelLimits& limits);
// A depthwise Conv and the pointwise Conv reading it (graph/depthwise_pointwise.h).
StatusOr<KernelPlan> BuildDepthwisePointwise(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildConvTranspose(const Graph& graph, const Node& node, const KernelLimits& limits);
// Conv/ConvTranspose with weights computed at run time (BuildConv hands over).
StatusOr<KernelPlan> BuildConvDynamic(const Graph& graph, const Node& node, const KernelLimits& limits);
// Conv/ConvTranspose with 3-D and higher windows (both hand rank-5+ nodes over).
StatusOr<KernelPlan> BuildConvNd(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildGemm(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildMatMul(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildSoftmax(const Graph& graph, const Node& node, const KernelLimits& limits);
// Transpose, Slice, Split, DepthToSpace, SpaceToDepth, Expand, Tile, non-aliased
// reshapes, Identity, inference Dropout.
StatusOr<KernelPlan> BuildStridedCopy(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildPad(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildReduce(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildBatchNormalization(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildNormalization(const Graph& graph, const Node& node, const KernelLimits& limits);
StatusOr<KernelPlan> BuildGroupNormalization(const Graph& graph, const Node& node, const KernelLimits& limits);
// ArgMax, ArgMin.
StatusOr<KernelPlan> BuildArgExtreme(const Graph& graph, const Node& node, const KernelLimits& limits);
// Gather, GatherElements.
StatusOr<KernelPlan> BuildGather(const Graph& graph, const Node& node, const KernelLimits& limits);
// The channel_copy plan (strided_copy.cc) writing output j's channel c from
// input channel maps[j][c] at the same (n, h, w); nullopt where `in` and an
// output differ in N, H or W, a map is out of range, or there are more
// outputs than the shader writes. Gather along C with constant indices uses it.
std::optional<KernelPlan> PlanChannelTable(const Graph& graph, const Node& node, const Tensor& in,
                                           const std::vector<const Tensor*>& outs,
                                           const std::vector<std::vector<int64_t>>& maps);

}  // namespace glpool
