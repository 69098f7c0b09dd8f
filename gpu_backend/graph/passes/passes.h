// Graph passes: rewrites of an imported Graph that keep its results (up to
// float rounding) and make it cheaper to run and to plan.
//
// Each pass is one file, returns how many rewrites it made, and leaves the
// graph valid: nodes topologically ordered, every input defined, graph
// outputs keeping their names. Passes never fail on a graph they cannot
// improve; they skip what does not match exactly.
#pragma once

#include <set>
#include <string>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

// Identity, Dropout whose mask is unused (inference), and x * 1, x / 1,
// x - 0 by constants that change neither x's shape nor its type are
// removed: consumers read the input directly. An Identity that links a graph input
// to a graph output stays (there is no producer to rename).
StatusOr<int> RemoveIdentities(Graph& graph);

// Dropout in training mode (constant training_mode and ratio) with a
// `seed` attribute keeps a fixed set of elements (seeded_dropout.h): it
// becomes a Mul by the constant keep-and-rescale factors, and its mask
// output, if any, a constant bool tensor.
StatusOr<int> LowerSeededTrainingDropout(Graph& graph);

// BatchNormalization in training mode (opset 14+, training_mode = 1, all
// fp32) becomes the ops that compute it: the batch mean and population
// variance over every dim but C (ReduceMean, Sub, Mul, ReduceMean, each
// viewed as [C] by a Reshape), an inference BatchNormalization using them
// for Y, and running = input * momentum + batch * (1 - momentum) (Mul, Mul,
// Add) for each running-statistics output that is read.
StatusOr<int> LowerTrainingBatchNorm(Graph& graph);

// LSTM and GRU (layout 0, default activations, no clip or coupled gates,
// constant W, R, B and P, every sequence at full length, at most 256 steps)
// unrolled into MatMul, Add, Sub, Slice, Sigmoid, Tanh, Mul, Reshape and
// Concat: one MatMul projects every step's input, then per step a MatMul
// by R, the gate slices (ONNX's orders: LSTM i, o, f, c; GRU z, r, h, with
// or without linear_before_reset) and the state updates. Others stay one
// node (the CPU fallback runs them).
StatusOr<int> LowerRecurrent(Graph& graph);

// Conv or ConvTranspose -> BatchNormalization with constant fp32 weights and
// BN parameters, the Conv output read by the BN only: the BN scale and shift
// move into new Conv weights and bias (W' = W * s, b' = (b - mean) * s +
// beta, with s = scale / sqrt(var + epsilon), per output channel) and the BN
// node goes.
StatusOr<int> FoldBatchNormIntoConv(Graph& graph);

// Conv or ConvTranspose -> Mul or Add by a constant fp32 tensor that varies along the
// channels at most (a scalar, [C, 1, 1], [1, C, 1, 1]...; the learnable
// scale and shift some exports put after a Conv), the Conv output read by
// that node only and no activation fused yet: the factor moves into new
// Conv weights and bias (W' = W * s, b' = b * s; b' = b + t) and the node
// goes. Repeats, so a Mul then an Add both fold.
StatusOr<int> FoldScaleShiftIntoConv(Graph& graph);

// HardSwish written out, x * Clip(x + 3, 0, 6) / 6 (the Div may be a Mul by
// 1/6), with x read by the Add and the Mul only: the four nodes go and x's
// producer, when it takes activations (see FuseActivations), gets HardSwish.
StatusOr<int> FuseHardSwishFormula(Graph& graph);

// x * HardSigmoid(x) with alpha = 1/6, beta = 1/2 (how opset < 14 exports
// write HardSwish): fused into x's producer as a HardSwish activation when
// that producer takes activations (see FuseActivations) and x feeds only
// the pair.
StatusOr<int> FuseHardSwishPattern(Graph& graph);

// x * Sigmoid(x) (Swish, SiLU: EfficientNet's activation, PP-OCR's): fused
// into x's producer as the "Swish" activation (graph.h) when that producer
// takes activations and x feeds only the pair.
StatusOr<int> FuseSwishPattern(Graph& graph);

// MatMul -> Add of a constant fp32 bias with one value per output column
// (shape [N], [1, N]...; N = the MatMul output's last dim), the MatMul
// output read by the Add alone and neither carrying fused attributes: the
// bias becomes the MatMul's third input (graph.h) and the Add goes.
StatusOr<int> FoldBiasIntoMatMul(Graph& graph);

// Conv (constant weights, 2-D window, no gate yet) whose input is
// x * gate, gate fp32 [1 or N, C, 1, 1] (a squeeze-and-excitation block's
// end), the product read by the Conv alone: the Conv reads x and takes the
// gate as its fourth input (graph.h), and the Mul goes.
StatusOr<int> FuseChannelGateIntoConv(Graph& graph);

// x + x * gate (either order, both fp32), gate a channel gate of x
// (IsChannelGateShape) read by that Mul alone and made by a node that takes
// a fused output shift, the product read by the Add alone: the gate's
// producer adds 1 to its output shift and the Add becomes Mul(x, gate),
// keeping its output and fused epilogue; the Mul goes.
StatusOr<int> FuseGatedSkip(Graph& graph);

// Add(conv(x), skip), skip fp32 of the Conv output's shape (a residual
// connection), the Conv (constant weights, 2-D window) with no fused
// activation, scale or shift and its output read by the Add alone: the Conv
// takes the Add's place and its outputs, the skip as its fifth input
// (graph.h) and the Add's fused activation, scale and shift; the Add goes.
StatusOr<int> FuseResidualAddIntoConv(Graph& graph);

// A nearest Resize or Upsample (4-D fp32) by whole factors fy, fx over H
// and W, each output cell reading cell (h / fy, w / fx) under its rule,
// whose output only an Add, Sub, Mul or Div reads with another operand and
// a result of that shape: the op reads the Resize's input through the
// upsample (graph.h kNearestUpsampledInputAttr) and the Resize goes.
StatusOr<int> FoldNearestUpsampleIntoElementwise(Graph& graph);

// LayerNormalization written out (exports for opsets before 17):
// mean = ReduceMean(x) over trailing axes (keepdims), d = x - mean,
// var = ReduceMean(Pow(d, 2) or d * d) over the same axes,
// y = d / Sqrt(var + epsilon), then optionally * scale and + bias
// (constants of one value or of the normalized dims), every intermediate
// read by the pattern alone: one LayerNormalization node (axis = the first
// reduced axis, epsilon, the scale or a constant 1, the bias) computes y.
StatusOr<int> FuseLayerNormFormula(Graph& graph);

// An activation (Relu, Clip with constant bounds, Sigmoid, Tanh,
// HardSigmoid, HardSwish, LeakyRelu, Elu) whose input comes from a Conv,
// ConvTranspose, Gemm, MatMul, Add, Sub, Mul, Div or BatchNormalization
// that feeds nothing else becomes that producer's "fused_activation"
// attribute (graph.h); the producer then writes the activation's output.
StatusOr<int> FuseActivations(Graph& graph);

// A Mul or Add by a scalar constant fp32 tensor after a node that takes
// fused activations (Conv, Gemm, MatMul, Add, Sub, Mul, Div, BN...), whose
// output it alone reads: the node gets a fused output scale and shift
// (graph.h), applied after its activation, and the Mul or Add goes. Runs
// after FuseActivations, so a scale after an activation fuses too.
StatusOr<int> FuseOutputScaleShift(Graph& graph);

// Reshape, Flatten, Squeeze and Unsqueeze whose input and output have the
// same PHWC4 layout (phwc4_layout.h: equal N, C, H, W) get the "alias_input" attribute:
// their output shares the input's storage, so they cost no task and no
// memory. Constant inputs are left alone (import folds those).
StatusOr<int> MarkFreeReshapes(Graph& graph);

// A Reshape, Flatten, Squeeze or Unsqueeze that copies (not marked free by
// MarkFreeReshapes) and sits right before or right after a Transpose, read
// by that Transpose alone (before) or reading the Transpose's output, which
// nothing else reads (after), folds into it: the Transpose reads the
// reshape's input as the reshape's output shape (kReadInputAsAttr) or
// writes the reshape's output, relabelled from its own shape
// (kWriteOutputAsAttr). A reshape keeps the row-major order, so the
// Transpose's one strided copy does both moves: a channel shuffle
// (Reshape, Transpose, Reshape) becomes one task instead of three.
StatusOr<int> FoldReshapesIntoTransposes(Graph& graph);

// Drops nodes none of whose outputs reaches a graph output, then tensors
// no node or graph input/output refers to (e.g. BN parameters after folding).
StatusOr<int> RemoveDeadNodes(Graph& graph);

// Concat, Sum, Max, Min and Mean with more than `width` inputs become a
// tree of the same op over groups of at most `width` inputs, in input
// order (Mean, float32 or float16: a Sum tree, then a Mul by 1/count), so
// GPU kernels that bind a fixed number of inputs run any arity; every
// partial result is a tensor of its own, so the planner sees it. Concat's
// empty inputs are dropped first. Results are identical for Concat, Max
// and Min; Sum and Mean add in another order. The default passes split at
// what the shaders bind (kMaxKernelVariadicInputs); the executor splits
// again where the context allows fewer bindings (runtime/binding_limits.h).
inline constexpr size_t kMaxKernelVariadicInputs = 7;  // kernels bind at most 8 objects
StatusOr<int> SplitWideVariadics(Graph& graph, size_t width = kMaxKernelVariadicInputs);

// A Transpose that only moves channels of images [N, C, H, W] (a channel
// shuffle once FoldReshapesIntoTransposes has folded its reshapes), read
// only by Slices along C (constant starts, positive steps, every other dim
// whole): each Slice becomes a Gather along C of the Transpose's input
// with constant indices (the Transpose's map composed with the Slice's)
// and the Transpose goes. ShuffleNet v2 splits every shuffled tensor so.
StatusOr<int> FoldChannelTransposesIntoSlices(Graph& graph);

// How many rewrites each pass of RunDefaultPasses made.
struct PassStats {
  int seeded_dropouts_lowered = 0;
  int identities_removed = 0;
  int training_batchnorms_lowered = 0;
  int recurrent_lowered = 0;  // LSTM and GRU nodes unrolled
  int batchnorms_folded = 0;
  int scale_shifts_folded = 0;  // Mul/Add by constants into Convs
  int hardswish_formulas_fused = 0;
  int hardswish_fused = 0;
  int swish_fused = 0;
  int layer_norm_formulas_fused = 0;
  int matmul_biases_folded = 0;
  int gated_skips_fused = 0;
  int channel_gates_fused = 0;
  int residual_adds_fused = 0;
  int nearest_upsamples_folded = 0;  // into the elementwise op reading them
  int activations_fused = 0;
  int output_scale_shifts_fused = 0;
  int free_reshapes = 0;
  int reshapes_folded = 0;  // into Transposes
  int channel_transposes_folded = 0;  // into the Slices reading them
  int dead_nodes_removed = 0;
  int wide_variadics_split = 0;
};

// Every pass above, in the order that lets each feed the next.
Status RunDefaultPasses(Graph& graph, PassStats* stats = nullptr);

// Convs the GPU runs faster as Winograd's F(4x4, 3x3) become its three
// tasks (graph/winograd.h); the GPU session applies it, not the default
// passes. Returns how many.
StatusOr<int> RewriteConvsAsWinograd(Graph& graph);

// A depthwise Conv read only by a pointwise Conv becomes one
// DepthwisePointwiseConv (graph/depthwise_pointwise.h) where the fused
// kernel recomputes little (kMaxFusedTapRecomputes), unless its output is
// in `keep`; the GPU session applies it. Returns how many.
StatusOr<int> FuseDepthwiseIntoPointwise(Graph& graph, const std::set<std::string>& keep);

}  // namespace glpool
