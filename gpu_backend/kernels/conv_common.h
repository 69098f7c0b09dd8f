// What the convolution descriptors (conv, conv_transpose, conv_dynamic)
// share: window geometry from ONNX attributes, weight packing for vec4
// loads, and work-group sizing.
//
// PHWC4 maps a rank-4 tensor to (N, C, H, W) and a rank-3 one to
// (N, C, 1, W), so a 1-D convolution is a 2-D one with H = 1 and a 1-high
// kernel: both run through the same shaders. Rank 5+ (3-D convolution and
// up) folds the outer spatial dims into H, which a 2-D window cannot undo:
// those go to conv_nd, which unfolds the row index itself.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/kernels/kernel.h"

namespace glpool {

// The operands of a Conv or ConvTranspose node: X, W, optional B, and Y.
struct ConvOperands {
  const Tensor* x = nullptr;
  const Tensor* w = nullptr;
  const Tensor* b = nullptr;  // nullptr when the node has no bias
  const Tensor* y = nullptr;
  // The channel gate FuseChannelGateIntoConv gives a Conv (graph.h), or null.
  const Tensor* gate = nullptr;
  // The residual FuseResidualAddIntoConv gives a Conv (graph.h), or null.
  const Tensor* residual = nullptr;
  // Weights (and bias) are constants: the packed-weight kernels apply.
  bool constant_weights() const { return w->is_constant && (b == nullptr || b->is_constant); }
};

// Reads them, or an InvalidModel error.
StatusOr<ConvOperands> ReadConvOperands(const Graph& graph, const Node& node);

// How a Conv (W: C_out x C_in/group x k...) or ConvTranspose (W: C_in x
// C_out/group x k...) splits its channels into groups, checked against X, W,
// Y and B; InvalidModel when they do not fit.
struct ConvChannels {
  int64_t group = 1;
  int64_t in_per_group = 0;
  int64_t out_per_group = 0;
  int64_t out_channels = 0;
};
StatusOr<ConvChannels> ReadConvChannels(const Node& node, const ConvOperands& operands);

// Window geometry for any number of spatial dims, outermost first (depth,
// height, width for a 3-D op): what conv_nd reads, and what the 2-D windows
// below are made from.
struct ConvWindow {
  std::vector<int64_t> kernel, stride, dilation, pad_begin, pad_end, output_padding;
};

// The geometry of a forward Conv from kernel_shape (or W's spatial dims),
// strides, dilations, pads and auto_pad, checked against the output shape
// the graph recorded.
StatusOr<ConvWindow> ForwardConvGeometry(const Node& node, const Shape& input, const Shape& weights,
                                         const Shape& output);

// The same for ConvTranspose (output_padding, output_shape, auto_pad as the
// ONNX spec and the CPU reference define them).
StatusOr<ConvWindow> TransposedConvGeometry(const Node& node, const Shape& input, const Shape& weights,
                                            const Shape& output);

// A 2-D window: index 0 is height (y), 1 is width (x). A 1-D op has
// kernel[0] = stride[0] = dilation[0] = 1 and no pads along y.
struct Window2D {
  std::array<int64_t, 2> kernel{1, 1};
  std::array<int64_t, 2> stride{1, 1};
  std::array<int64_t, 2> dilation{1, 1};
  std::array<int64_t, 2> pad_begin{0, 0};
  std::array<int64_t, 2> pad_end{0, 0};
  std::array<int64_t, 2> output_padding{0, 0};  // ConvTranspose only
};

// Ok for an N x C x W or N x C x H x W tensor; Unsupported (with the reason)
// for 3-D and higher convolutions, which the 2-D shaders cannot run;
// InvalidModel for anything smaller.
Status CheckConvRank(const Shape& input);

// The geometry above for the 2-D shaders (conv, conv_transpose,
// conv_dynamic): CheckConvRank, then a 1-D op's only dim moved to x.
StatusOr<Window2D> ForwardConvWindow(const Node& node, const Shape& input, const Shape& weights,
                                     const Shape& output);
StatusOr<Window2D> TransposedConvWindow(const Node& node, const Shape& input, const Shape& weights,
                                        const Shape& output);

// Window and channel-group defines every convolution shader reads.
void AddWindowDefines(const Window2D& window, KernelPlan& plan);

// Channel groups seen by one output slice (4 output channels): the input
// slices [begin, end) it reads. The shaders compute the same numbers from
// IC_PER_GROUP and OC_PER_GROUP (conv.comp: input_slices).
struct SliceRange {
  int64_t begin = 0, end = 0;
};
SliceRange InputSlicesOf(int64_t out_slice, int64_t out_channels, int64_t in_per_group, int64_t out_per_group);
// The most input slices any output slice reads (the weights' stride).
int64_t MaxInputSlices(int64_t out_channels, int64_t in_per_group, int64_t out_per_group);

// Dense or grouped weights for the shaders' mat4 products, as
// [out_slice][tap][in_slice - begin][in lane][out lane]: for one output
// slice, tap and input slice, four vec4 columns (one per input channel of the
// slice, each holding that channel's weight for the 4 output channels), so
// `mat4(w0, w1, w2, w3) * texel` accumulates 16 products. Out slices are
// padded to a multiple of `out_slices_multiple`; pairs (out, in) in
// different groups, and padding channels, hold zero.
// `weight(oc, ic_in_group, ky, kx)` reads the ONNX weight.
std::vector<float> PackGroupedWeights(int64_t out_channels, int64_t in_channels, int64_t in_per_group,
                                      int64_t out_per_group, std::array<int64_t, 2> kernel,
                                      int64_t out_slices_multiple,
                                      const std::function<float(int64_t, int64_t, int64_t, int64_t)>& weight);

// Bias (or zeros) as one vec4 per output slice, padded to a multiple of
// `out_slices_multiple` slices.
std::vector<float> PackBias(const std::vector<float>& bias, int64_t out_channels, int64_t out_slices_multiple);

// Depthwise weights (one per channel and tap, `taps` per channel) as one
// vec4 per (slice, tap): the slice's 4 channels side by side, padding
// channels zero.
std::vector<float> PackDepthwiseWeights(int64_t channels, int64_t taps,
                                        const std::function<float(int64_t channel, int64_t tap)>& weight);

// Output slices one invocation computes: more slices share each input load
// (the costly part on llvmpipe and on bandwidth-bound GPUs), fewer keep
// more invocations in flight.
int64_t OutputSlicesPerInvocation(int64_t out_slices);
// The same for a conv of `group` groups: a block must lie within one group
// to share its input loads (output slices of different groups read
// different input slices), so grouped convs whose groups are not whole
// slices take one slice per invocation, and the others a block that
// divides a group's slices.
int64_t OutputSlicesPerInvocation(int64_t out_slices, int64_t group, int64_t out_per_group);

// Output columns one invocation computes: each weight it loads then feeds
// that many products. Narrow outputs keep one column per invocation.
int64_t OutputPixelsPerInvocation(int64_t width);

// llvmpipe runs a work group in batches of SIMD lanes (8 with 256-bit
// vectors) along x only: consecutive x of one row, the lanes past the
// group's width idle (GPUs also fill warps x first). Blocks of `pixels`
// columns that leave 4 columns make a group 4 wide and idle half the lanes,
// so this narrows `pixels` (a power of two) until a row keeps at least
// kMinGroupColumns columns, a group 8 wide (LocalSize2D).
// resnet18's 3x3 512->512 at 7x7 with 1 column per invocation instead of 2:
// 30-34 ms instead of 47-55; 3x3 256->256 at 14x14 with 2 instead of 4:
// 25-34 ms instead of 29-45 (llvmpipe, 3 interleaved rounds).
inline constexpr int64_t kMinGroupColumns = 5;
// The SIMD lanes llvmpipe runs together with 256-bit vectors.
inline constexpr int64_t kLaneBatch = 8;
int64_t NarrowToFillLanes(int64_t width, int64_t pixels);

// llvmpipe runs a work group's invocations 8 SIMD lanes at a time along x,
// so a row of column blocks that is not a multiple of 8 leaves lanes idle:
// 80 columns in blocks of 16 fill 5 lanes of 8. This returns a block width
// from 1 to 16, not only powers of two, whose blocks fill whole batches of
// 8 lanes with at least kMinLaneUse of the computed columns real (80 -> 10,
// 112 -> 14, 56 -> 7, 40 -> 5), the widest such; `pixels` when none fills
// the lanes better. One llvmpipe thread, in-process A/B, the same bits:
// PP-OCRv4 rec (80-wide convs) 101.8 -> 81.7 ms, u2netp 2480 -> 2064,
// mobilenet_v2 38.3 -> 36.6, PP-OCR cls 5.30 -> 5.04.
inline constexpr double kMinLaneUse = 0.95;
int64_t PixelsFillingLaneBatches(int64_t width, int64_t pixels);

// "F(0) F(1) ... F(count - 1)": a shader's FOR_EACH-style macro body for a
// block size its own #if chain does not spell.
std::string IndexList(int64_t count);

// The input positions `outputs` consecutive outputs read along one axis,
// from the first output's first tap to the last output's last: a block's
// input row or column span (conv and pool blocks spell loads over it).
inline int64_t InputSpan(int64_t outputs, int64_t kernel, int64_t stride, int64_t dilation) {
  return (outputs - 1) * stride + (kernel - 1) * dilation + 1;
}

// Outputs whose blocks leave fewer than kMinGroupColumns columns and more
// slice blocks than columns (a Gemm's [M, N], a conv after a global pool)
// run their slice blocks along the dispatch's x: sets the plan's
// LANES_ALONG_SLICES define (GLPOOL_OUTPUT_POSITION in the shader
// preamble), and when it is 1 the local size and groups over (slice
// blocks, rows, columns). Returns whether it did.
bool PutSlicesAlongLanes(int64_t columns, int64_t rows, int64_t slice_blocks, const KernelLimits& limits,
                         KernelPlan& plan);
// Whether PutSlicesAlongLanes puts them along the lanes.
bool SlicesAlongLanes(int64_t columns, int64_t slice_blocks);

// PackGroupedWeights' blocks of a pointwise conv (one tap, every input
// slice) reordered for slice blocks along the lanes, where each lane reads
// its own output slices' weights: [batch of kLaneBatch slice blocks][in
// slice][slice block of the batch][its `block` output slices][4 vec4]. A
// batch of lanes then reads its weights as one run in order, where
// PackGroupedWeights' order has each lane read a 16-byte piece of its own
// row, 4 * kLaneBatch rows at once: a Gemm's weights, too large to stay
// cached between runs, stream from memory (shaders/conv.comp
// WEIGHTS_BY_LANE_BATCH).
std::vector<float> LaneBatchMajor(const std::vector<float>& packed, int64_t slice_blocks, int64_t block,
                                  int64_t in_slices);

// Output rows one invocation computes beside `pixels` columns: blocks of
// fewer than kTargetBlock pixels (narrow outputs) grow rows, a power of two
// up to the output's height rounded up, while the block stays within
// kTargetBlock. 16 rather than 8: one llvmpipe thread, in-process A/B,
// medians, the same bits: mobilenet_v2 122.7 -> 109.4 ms, squeezenet1_1
// 121.8 -> 107.1, resnet18 466.7 -> 419.7, efficientnet_b0 158.5 -> 150.5
// (the conv alone: 1x1 64 -> 64 at 56x56 7x1 -> 7x2 columns by rows, 3.49
// -> 2.74 ms; 3x3 64 -> 64 at 56x56 23.6 -> 19.6). 32 ran 5-13% faster
// again but took Mesa 2-3.5x as long to compile (each stored pixel is a
// lane-by-lane store loop in the JIT code): mobilenet_v2's first run with
// a cold shader cache 13 s at 8, 20 s at 16, 46 s at 32.
inline constexpr int64_t kTargetBlock = 16;
// The most rows a block takes, whatever its target: shaders/conv.comp's
// FOR_ROWS spells 1, 2, 4, 8 or 16.
inline constexpr int64_t kMaxBlockRows = 16;
int64_t OutputRowsPerInvocation(int64_t height, int64_t pixels, int64_t target_block = kTargetBlock);

// Depthwise blocks grow rows to this many pixels: their input rows spelled
// out (no loop, so no masked accumulator writes and no row tests at run
// time), one llvmpipe thread, the conv alone, best of 5 processes: 3x3
// 144 ch at 56x56 3.71 -> 2.25 ms (7 columns, 4 rows), 3x3 s2 96 ch from
// 112x112 3.23 -> 2.34, 5x5 72 ch at 56x56 2.92 -> 1.77, 3x3 576 ch at
// 14x14 0.90 -> 0.56 (whole rows, 2), 3x3 192 ch at 28x28 1.07 -> 0.81
// (whole rows, 1: more rows lost there). 56 ran no faster than 28 on whole
// models; 28 made mobilenet_v2's first run with a cold shader cache 24.6 s
// against 19.1 s before and 20.4 s at 14.
inline constexpr int64_t kDepthwiseTargetBlock = 28;

// Dense convs over at least this many input slices, and every grouped one,
// spell a kernel row's taps out (conv.cc UNROLL_KX).
inline constexpr int64_t kMinSlicesToUnrollTaps = 3;

// Loops spelled out (conv.cc): dense convs under kMinSlicesToUnrollTaps
// input slices with at most kMaxSpelledTaps taps (3-channel stems) spell
// every tap and slice; pointwise convs over at most kMaxSpelledInputSlices
// input slices spell the slices. One llvmpipe thread, the conv alone, best
// of 5 processes: 3x3 s2 3 -> 32 at 224 5.37 -> 3.21 ms, 1x1 16 -> 96 at
// 112x112 7.41 -> 6.38, 1x1 24 -> 144 at 56x56 3.41 -> 3.11; 8 and 16
// slices ran no faster (1x1 32 -> 16 at 112 1.93 -> 1.92, 64 -> 64 at 56
// 2.88 -> 2.94). In-process A/B, one thread, the same bits: mobilenet_v2
// 95.9 -> 92.1 ms, squeezenet1_1 118.3 -> 109.6. A 7x7 stem spelled (49
// taps) ran 34.5 -> 22.5 ms but nearly doubled resnet18's compile time
// with a cold shader cache (27.7 -> 52.0 s); the 3x3 stems cost
// mobilenet_v2 about 4 s of it.
inline constexpr int64_t kMaxSpelledTaps = 9;
inline constexpr int64_t kMaxSpelledInputSlices = 6;

// The share of the lanes that compute real outputs when blocks of `pixels`
// columns by `rows` rows run along the lanes (whole batches of kLaneBatch
// per row of blocks; the last row block's extra rows count as idle), and
// when the slice blocks do instead, each block a whole row wide: the same
// count with the slice blocks as columns one wide.
double LaneUse(int64_t width, int64_t height, int64_t pixels, int64_t rows);
inline double SliceLaneUse(int64_t slice_blocks, int64_t height, int64_t rows) {
  return LaneUse(slice_blocks, height, 1, rows);
}

// Dense, grouped and pointwise outputs at most this many columns wide take
// whole rows per invocation, their slice blocks along the lanes, where that
// keeps more lanes busy than their column blocks do (conv.cc). 32 also ran
// 28-wide convs faster (3x3 128 -> 128 at 28x28 20.2 -> 15.7 ms, one
// thread) but made resnet18's first run with a cold shader cache 37.6 s
// against 24.4 (26.9 at 16), and resnet18 ran no faster than at 16.
inline constexpr int64_t kWholeRowWidth = 16;

// Depthwise outputs at most this many columns wide (with 8 or more slices)
// take whole rows per invocation (conv.cc).
inline constexpr int64_t kWholeRowDepthwiseWidth = 32;

// A 2-D work group over (W, rows) within `max_invocations` (at most 64:
// enough to fill SIMD lanes without starving small outputs of groups).
// Wider than kLaneBatch, its width is the multiple of kLaneBatch whose
// groups leave the fewest idle lanes past W (u2netp's 320-wide convs, 23
// blocks of 14 columns: 3 groups of 8 instead of one of 32; in-process A/B,
// two threads, 2138 -> 2051 ms, the same bits).
std::array<uint32_t, 3> LocalSize2D(int64_t width, int64_t rows, uint32_t max_invocations);

// LocalSize2D for a dispatch whose z runs over `depth` groups, narrowed
// until the dispatch spans at least `limits.min_groups` work groups: first
// its rows, then its width down to a batch of lanes, each halving doubling
// the groups (conv_common.cc says why).
std::array<uint32_t, 3> LocalSize2D(int64_t width, int64_t rows, int64_t depth, const KernelLimits& limits);

// The same, then the invocations left over along the slices (`depth`), for
// shaders whose invocations need not share a slice: an output of 1 x 1 x S
// (a Gemm of one row) then fills a group's SIMD lanes instead of running
// each slice as a group of one invocation.
std::array<uint32_t, 3> LocalSize3D(int64_t width, int64_t rows, int64_t depth, uint32_t max_invocations);

// A float as a GLSL literal ("0.5", "1.0", "1e-05").
std::string GlslFloat(float value);

}  // namespace glpool
