// Conv with constant weights (shaders/conv.comp): pointwise (1x1, stride 1,
// no pads: no window arithmetic at all), depthwise (one vec4 product per
// tap) and general/grouped (mat4 products) paths, picked here and compiled
// as separate variants. Weights given at run time go to conv_dynamic, 3-D
// and higher windows to conv_nd.
#include "gpu_backend/graph/phwc4_layout.h"
#include "gpu_backend/kernels/conv_common.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_ops.h"

namespace glpool {

StatusOr<KernelPlan> BuildConv(const Graph& graph, const Node& node, const KernelLimits& limits) {
  GLPOOL_ASSIGN_OR_RETURN(const ConvOperands operands, ReadConvOperands(graph, node));
  if (operands.x->shape.size() > 4) return BuildConvNd(graph, node, limits);
  if (!operands.constant_weights()) return BuildConvDynamic(graph, node, limits);
  const Tensor* x = operands.x;
  const Tensor* w = operands.w;
  const Tensor* b = operands.b;
  const Tensor* y = operands.y;
  GLPOOL_ASSIGN_OR_RETURN(Window2D window, ForwardConvWindow(node, x->shape, w->shape, y->shape));
  GLPOOL_ASSIGN_OR_RETURN(const ConvChannels channels, ReadConvChannels(node, operands));

  const int64_t in_channels = x->shape[1], out_channels = channels.out_channels;
  const int64_t group = channels.group;
  const int64_t in_per_group = channels.in_per_group, out_per_group = channels.out_per_group;
  const int64_t out_slices = (out_channels + 3) / 4;
  const std::array<int64_t, 2> one{1, 1}, zero{0, 0};
  const bool depthwise = in_per_group == 1 && out_per_group == 1;
  const bool pointwise = group == 1 && window.kernel == one && window.stride == one && window.pad_begin == zero &&
                         window.pad_end == zero;
  // Grouped convs share input loads within a group: blocks of output slices
  // inside one group (conv_common.h). One llvmpipe thread, the conv alone,
  // best of 5 processes, one slice a block -> the group's block: 3x3 512 ->
  // 512 in 32 groups at 14x14 3.94 -> 3.15 ms (4 slices), 256 -> 256 in 32
  // groups at 28x28 6.37 -> 5.42 (2), 1x1 9216 -> 9216 in 36 groups at 4x4
  // 10.9 -> 7.7 (4).
  const int64_t block = depthwise ? 1 : OutputSlicesPerInvocation(out_slices, group, out_per_group);

  KernelPlan plan;
  plan.shader = "conv";
  plan.inputs = {x->name};
  if (operands.gate != nullptr) {
    // Every input texel the conv loads is scaled by the gate's texel of its
    // slice (shaders/conv.comp GATED).
    plan.inputs.push_back(operands.gate->name);
    plan.defines.emplace_back("GATED", operands.gate->shape[0] == 1 ? "1" : "2");
  }
  if (operands.residual != nullptr) {
    // Added to each output before its activation (shaders/conv.comp
    // RESIDUAL: the input that holds it).
    plan.inputs.push_back(operands.residual->name);
    plan.defines.emplace_back("RESIDUAL", std::to_string(plan.inputs.size() - 1));
  }
  plan.outputs = {y->name};
  plan.defines.emplace_back("MODE", depthwise ? "2" : pointwise ? "1" : "0");
  plan.defines.emplace_back("OUT_SLICES", std::to_string(block));
  const Phwc4Layout out = LayoutOf(y->shape);
  // Every weight vec4 an invocation loads feeds `pixels` products, and on
  // llvmpipe an SSBO load runs lane by lane, so wide outputs of the mat4
  // paths take 16 columns (u2netp's 320-wide 3x3 convs: about 20% faster
  // than 8). Depthwise loads one vec4 per tap and starts from the shared
  // choice on wide outputs. Narrow outputs narrow the block so that a
  // group's row fills the lanes, and every path then takes a width whose
  // blocks fill whole batches of 8 lanes where one does (conv_common.h
  // PixelsFillingLaneBatches). For depthwise convs that was the larger
  // part of their cost: one thread, the conv alone, best of 5 processes,
  // 5x5 240 ch at 12x80 4.81 -> 2.87 ms (10 columns, not 8), 3x3 128 ch at
  // 12x160 2.53 -> 1.90 (10), 3x3 32 ch at 112x112 3.58 -> 3.02 (14), 3x3
  // 144 ch at 56x56 3.99 -> 3.64 (7).
  int64_t pixels = NarrowToFillLanes(out.w, !depthwise && out.w >= 64 ? 16 : OutputPixelsPerInvocation(out.w));
  if (!depthwise || out.w > kWholeRowDepthwiseWidth || out_slices < 8) {
    pixels = PixelsFillingLaneBatches(out.w, pixels);
  } else {
    // A whole row per invocation, the lanes along the slices (one column of
    // blocks: PutSlicesAlongLanes below): each weight a block fetches feeds
    // the row, where a narrowed block of 1 or 2 columns fetched a weight
    // per product or two. One llvmpipe thread, three rounds each: 5x5
    // 1152 ch at 7x7 2.64-3.17 -> 0.99-1.32 ms, 5x5 480 at 14x14
    // 2.75-2.88 -> 1.13-1.21, 5x5 120 at 28x28 2.05-2.09 -> 1.05-1.15,
    // 3x3 192 at 28x28 1.82-2.07 -> 1.33-1.35; at 56 columns whole rows
    // lost (3x3 72 ch 2.08-2.47 against 2.36-2.51).
    pixels = out.w;
  }
  // Narrow outputs (few columns per block) add rows to the block so that
  // each weight still feeds several products. Depthwise blocks spell their
  // input rows out (shaders/conv.comp FOR_IN_ROWS) and load each once for
  // all their rows, so R rows load R + KERNEL_H - 1 input rows instead of
  // R * KERNEL_H; they grow to kDepthwiseTargetBlock pixels.
  int64_t rows = OutputRowsPerInvocation(out.h, pixels, depthwise ? kDepthwiseTargetBlock : kTargetBlock);
  const uint32_t slice_blocks = DivideRoundUp(out_slices, static_cast<uint32_t>(block));
  // Narrow outputs of the mat4 paths: a whole row per invocation and the
  // slice blocks along the lanes (PutSlicesAlongLanes below), where that
  // keeps more lanes busy than the column blocks do. One llvmpipe thread,
  // the conv alone, best of 5 processes: 1x1 512 -> 1000 at 13x13
  // (squeezenet1_1's classifier) 20.7 -> 15.0 ms, 3x3 256 -> 256 at 14x14
  // 23.4 -> 17.7, 1x1 96 -> 576 at 14x14 2.52 -> 2.27. Narrow outputs with
  // few slice blocks keep their column blocks (1x1 960 -> 160 at 7x7: 10
  // slice blocks in 16 lanes, 1.72 ms against 2.39 along the slices).
  // Whole models, in-process A/B, two threads, medians, the same bits:
  // squeezenet1_1 63.1 -> 52.4 ms, resnet18 203.2 -> 187.3,
  // efficientnet_b0 82.3 -> 79.0, mobilenet_v2 58.4 -> 57.3.
  if (!depthwise && out.w <= kWholeRowWidth) {
    const int64_t whole_rows = OutputRowsPerInvocation(out.h, out.w);
    if (SliceLaneUse(slice_blocks, out.h, whole_rows) > LaneUse(out.w, out.h, pixels, rows)) {
      pixels = out.w;
      rows = whole_rows;
    }
  }
  plan.defines.emplace_back("OUT_PIXELS", std::to_string(pixels));
  plan.defines.emplace_back("OUT_ROWS", std::to_string(rows));
  const int64_t columns = (out.w + pixels - 1) / pixels;
  const int64_t row_blocks = out.n * ((out.h + rows - 1) / rows);  // blocks never straddle two images
  const int64_t block_size = pixels * rows;
  plan.defines.emplace_back("FOR_PIXELS(F)", IndexList(block_size));
  const int64_t in_slices = MaxInputSlices(out_channels, in_per_group, out_per_group);
  // The input columns a block row reads (shaders/conv.comp IN_COLS).
  const int64_t in_cols = InputSpan(pixels, window.kernel[1], window.stride[1], window.dilation[1]);
  // The general path spells a kernel row's taps out (shaders/conv.comp
  // UNROLL_KX) where the input slices' loop is long enough to pay: each
  // accumulator then takes a kernel row's products in one masked write per
  // input slice instead of one per tap. In-process A/B, two llvmpipe
  // threads, medians, the same bits: resnet18 317 -> 227 ms, squeezenet1_1
  // 80.3 -> 70.3, PP-OCRv4 det 497 -> 459, regnet_y_400mf (grouped, 2
  // slices a group) 92.0 -> 88.4. Dense convs over 1 or 2 input slices
  // (stems) lost: one thread, 3x3 s2 3 -> 32 at 224 5.5 -> 6.8 ms,
  // 8 -> 32 9.0 -> 13.3.
  if (!depthwise && !pointwise && (in_slices >= kMinSlicesToUnrollTaps || group > 1)) {
    plan.defines.emplace_back("UNROLL_KX", "1");
    plan.defines.emplace_back("FOR_KX(F)", IndexList(window.kernel[1]));
    plan.defines.emplace_back("FOR_IN_TEXELS(F)", IndexList(rows * in_cols));
    // A group's input slices spelled out where they are few and whole
    // (shaders/conv.comp): each accumulator then takes a kernel row over
    // all of them in one masked write. One thread, in-process A/B, the same
    // bits: four 3x3 convs in groups of 8 channels, 48 at 56x56 14.42 ->
    // 12.14 ms, 104 at 28x28 8.98 -> 7.50; regnet_y_400mf 117.2 -> 109.2.
    // Its first run with a cold shader cache: 25.6 -> 30.7 s. Spelling the
    // kernel rows as well ran the convs faster still (g48 8.8 ms) but the
    // model no faster, and took 44.3 s to compile.
    if (group > 1 && in_per_group % 4 == 0 && in_per_group / 4 <= kMaxSpelledInputSlices) {
      plan.defines.emplace_back("FOR_IN_SLICES(F)", IndexList(in_per_group / 4));
    }
  }
  // Short loops are spelled out (shaders/conv.comp FOR_TAPS, FOR_IN_SLICES;
  // conv_common.h says where): with no loop, the accumulators are never
  // blended with the lanes' mask. Dense convs that keep the tap loop (stems)
  // spell their taps and input slices, pointwise convs their input slices.
  const int64_t taps = window.kernel[0] * window.kernel[1];
  if (!depthwise && !pointwise && group == 1 && in_slices < kMinSlicesToUnrollTaps && taps <= kMaxSpelledTaps) {
    plan.defines.emplace_back("FOR_TAPS(F)", IndexList(taps));
    plan.defines.emplace_back("FOR_IN_SLICES(F)", IndexList(in_slices));
  }
  if (pointwise && in_slices <= kMaxSpelledInputSlices) {
    plan.defines.emplace_back("FOR_IN_SLICES(F)", IndexList(in_slices));
  }
  if (depthwise) {
    plan.defines.emplace_back("FOR_COLS(F)", IndexList(pixels));
    plan.defines.emplace_back("FOR_KX(F)", IndexList(window.kernel[1]));
    plan.defines.emplace_back("FOR_IN_COLS(F)", IndexList(in_cols));
    plan.defines.emplace_back("FOR_IN_ROWS(F)",
                              IndexList(InputSpan(rows, window.kernel[0], window.stride[0], window.dilation[0])));
  }
  AddWindowDefines(window, plan);

  const std::vector<float> w_values = w->data.ToFloats();
  const std::array<int64_t, 2> kernel = window.kernel;
  auto weight = [&](int64_t oc, int64_t ic, int64_t ky, int64_t kx) {
    return w_values[static_cast<size_t>(((oc * in_per_group + ic) * kernel[0] + ky) * kernel[1] + kx)];
  };
  if (depthwise) {
    plan.weights.push_back({"weights", PackDepthwiseWeights(out_channels, kernel[0] * kernel[1],
                                                            [&](int64_t c, int64_t tap) {
                                                              return weight(c, 0, tap / kernel[1], tap % kernel[1]);
                                                            })});
  } else {
    plan.defines.emplace_back("IN_SLICES", std::to_string(in_slices));
    plan.defines.emplace_back("IC_PER_GROUP", std::to_string(in_per_group));
    plan.defines.emplace_back("OC_PER_GROUP", std::to_string(out_per_group));
    plan.defines.emplace_back("GROUPED", group > 1 ? "1" : "0");
    std::vector<float> packed =
        PackGroupedWeights(out_channels, in_channels, in_per_group, out_per_group, kernel, block, weight);
    // Pointwise convs with their slice blocks along the lanes (Gemms, 1x1
    // outputs) read the weights a batch of lanes at a time (conv_common.h
    // LaneBatchMajor). One thread, a Gemm 1024 -> 1024 alone 0.52 -> 0.44
    // ms, and in a chain of eight, whose weights come from memory, 0.95 ->
    // 0.80 ms each; in-process A/B, two threads, 10 runs x 3 rounds, the
    // same bits: mobilenet_v3_large 38.5 -> 34.5 ms, mobilenet_v3_small
    // 10.2 -> 9.4, mobilenet_v2 26.6 -> 25.9; regnet_y_400mf,
    // efficientnet_b0 and resnet18 within 1%.
    if (pointwise && SlicesAlongLanes(columns, slice_blocks)) {
      packed = LaneBatchMajor(packed, slice_blocks, block, in_slices);
      plan.defines.emplace_back("WEIGHTS_BY_LANE_BATCH", std::to_string(kLaneBatch));
    }
    plan.weights.push_back({"weights", std::move(packed)});
  }
  plan.weights.push_back({"bias", PackBias(b ? b->data.ToFloats() : std::vector<float>{}, out_channels, block)});
  GLPOOL_RETURN_IF_ERROR(AddFusedActivationDefines(node, plan));

  // Outputs narrower than a group's row of lanes (1x1 after a global pool:
  // squeeze-and-excitation convs) run their slice blocks along x instead.
  if (PutSlicesAlongLanes(columns, row_blocks, slice_blocks, limits, plan)) return plan;
  plan.local_size = LocalSize2D(columns, row_blocks, slice_blocks, limits);
  plan.groups = {DivideRoundUp(columns, plan.local_size[0]), DivideRoundUp(row_blocks, plan.local_size[1]),
                 slice_blocks};
  return plan;
}

}  // namespace glpool
