// A depthwise Conv read only by a pointwise one, run as one op
// (passes/fuse_depthwise_pointwise.cc): the GPU computes each depthwise
// value in registers and feeds it straight into the pointwise products, so
// the depthwise output, the largest tensor of an inverted-residual block,
// is never stored or loaded again. On llvmpipe a stored float costs about
// 13 instructions, ten times a loaded one: storing, not arithmetic, is most
// of a depthwise conv's time.
//
//   DepthwisePointwiseConv(X, Wd, Bd, Wp, Bp [, residual]) -> Y
//     X [N, C, H, W]; Wd [C, 1, kh, kw], Bd [C] or "": the depthwise Conv,
//     with its window attributes (kernel_shape, strides, pads, dilations,
//     auto_pad) on this node and its fused activation as
//     kDepthwiseActivationAttr (and its params); Wp [M, C, 1, 1], Bp [M] or
//     "": the pointwise Conv; residual (Y's shape): added before the node's
//     own fused activation, scale and shift, which are the pointwise Conv's.
#pragma once

#include <optional>

#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

inline constexpr char kDepthwisePointwiseOp[] = "DepthwisePointwiseConv";
inline constexpr char kDepthwiseActivationAttr[] = "depthwise_activation";
inline constexpr char kDepthwiseActivationParamsAttr[] = "depthwise_activation_params";
// Inputs by position.
inline constexpr size_t kDepthwiseWeightsInput = 1, kDepthwiseBiasInput = 2, kPointwiseWeightsInput = 3,
                        kPointwiseBiasInput = 4, kDepthwisePointwiseResidualInput = 5;
// The window attributes the node copies from the depthwise Conv.
inline constexpr const char* kDepthwiseWindowAttrs[] = {"kernel_shape", "strides", "pads", "dilations", "auto_pad"};

// Output slices one block of the fused kernel computes
// (kernels/depthwise_pointwise.cc); each block recomputes the depthwise
// values it reads.
inline constexpr int64_t kMaxBlockSlices = 8;
// A pair fuses when its depthwise values are computed at most this many
// times over with a 3x3 window: the window's taps times the pointwise
// Conv's blocks of output slices must stay within kMaxFusedTapRecomputes.
// One llvmpipe thread unless said, against the two Convs apart: 3x3 384 ch
// at 14x14 -> 64 (two blocks) 0.79-0.90 ms against 0.96-0.98 (per-task
// minima of 3 processes); 576 ch at 14x14 -> 96 (three blocks) 2.53
// against 1.67-1.77; 5x5 120 ch at 28x28 -> 40 (two blocks, 50 taps)
// in-process A/B, medians of 12 rounds, 0.88x as fast fused (two threads
// 0.84x), 5x5 stride 2 72 ch from 56x56 -> 40 0.94x (0.95x).
inline constexpr int64_t kMaxDepthwiseRecompute = 2;
inline constexpr int64_t kMaxFusedTapRecomputes = kMaxDepthwiseRecompute * 9;
// The times the fused kernel computes each depthwise value: once per
// block of the pointwise Conv's output slices.
inline int64_t DepthwiseComputations(int64_t pointwise_outputs) {
  const int64_t slices = (pointwise_outputs + 3) / 4;
  return (slices + kMaxBlockSlices - 1) / kMaxBlockSlices;
}

// Copies the depthwise Conv's window attributes and its fused activation
// (as kDepthwiseActivationAttr) onto the node that takes its work over.
inline void CopyDepthwiseAttributes(const Node& depthwise, Node& to) {
  for (const char* window : kDepthwiseWindowAttrs) {
    if (depthwise.HasAttribute(window)) to.attributes[window] = depthwise.attributes.at(window);
  }
  if (depthwise.HasAttribute(kFusedActivationAttr)) {
    to.attributes[kDepthwiseActivationAttr] = depthwise.attributes.at(kFusedActivationAttr);
  }
  if (depthwise.HasAttribute(kFusedActivationParamsAttr)) {
    to.attributes[kDepthwiseActivationParamsAttr] = depthwise.attributes.at(kFusedActivationParamsAttr);
  }
}

// The depthwise half's activation, nullopt when it has none.
inline std::optional<FusedActivation> GetDepthwiseActivation(const Node& node) {
  if (!node.HasAttribute(kDepthwiseActivationAttr)) return std::nullopt;
  Node carrier;
  carrier.attributes[kFusedActivationAttr] = node.attributes.at(kDepthwiseActivationAttr);
  if (node.HasAttribute(kDepthwiseActivationParamsAttr)) {
    carrier.attributes[kFusedActivationParamsAttr] = node.attributes.at(kDepthwiseActivationParamsAttr);
  }
  return GetFusedActivation(carrier);
}

}  // namespace glpool
