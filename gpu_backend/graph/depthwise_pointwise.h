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

// Pointwise Convs with more output channels than this keep their depthwise
// Conv: each block of output slices (kernels/depthwise_pointwise.cc: up to
// 8) recomputes the depthwise values it reads. One llvmpipe thread, the
// pair alone, best of 3-7 processes against the two Convs: 3x3 384 ch at
// 14x14 -> 64 (two blocks) 0.79-0.90 ms against 0.96-0.98; 576 ch at 14x14
// -> 96 (three) 2.53 against 1.67-1.77.
inline constexpr int64_t kMaxFusedPointwiseOutputs = 64;

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
