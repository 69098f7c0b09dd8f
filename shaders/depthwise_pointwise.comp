#version 310 es
// glpool-tensors: in0 [in1] out0
// glpool-weights: dw_weights dw_bias pw_weights pw_bias
// DepthwisePointwiseConv (gpu_backend/graph/depthwise_pointwise.h): a
// depthwise Conv and the pointwise Conv that alone reads it, in one pass.
//
// One invocation computes a block of OUT_PIXELS columns by OUT_ROWS rows
// (of one image) times OUT_SLICES output slices. For each input slice it
// computes the block's depthwise values in registers (loading each input
// row its window reads once, as conv.comp's depthwise path does), applies
// the depthwise activation, and feeds them into the block's pointwise mat4
// products: the depthwise output is never stored. Blocks of other output
// slices at the same pixels recompute the same depthwise values, which is
// why the pass fuses only pointwise Convs with few output channels.
//
// Weights: dw_weights one vec4 per (slice, tap), dw_bias one per slice;
// pw_weights conv_common.h PackGroupedWeights of the 1x1 Conv, [out
// slice][in slice][4 vec4], pw_bias one vec4 per output slice, both padded
// to whole OUT_SLICES blocks.
#ifndef OUT_SLICES
#define OUT_SLICES 2
#endif
#ifndef OUT_PIXELS
#define OUT_PIXELS 2
#endif
#ifndef OUT_ROWS
#define OUT_ROWS 1
#endif
#define BLOCK (OUT_PIXELS * OUT_ROWS)
#define COL(i) ((i) % OUT_PIXELS)
#define ROW(i) ((i) / OUT_PIXELS)
#ifndef IN_SLICES
#define IN_SLICES in0_S  // the pointwise weights' input slices
#endif
#ifndef KERNEL_H
#define KERNEL_H 3
#define KERNEL_W 3
#define STRIDE_Y 1
#define STRIDE_X 1
#define DILATION_Y 1
#define DILATION_X 1
#define PAD_Y 1
#define PAD_X 1
#endif
#ifndef DW_ACTIVATION
#define DW_ACTIVATION 0  // glpool_activation's numbering (the preamble)
#endif
#ifndef DW_P0
#define DW_P0 0.0
#endif
#ifndef DW_P1
#define DW_P1 0.0
#endif
#ifndef RESIDUAL
#define RESIDUAL 0  // 1: in1, of the output's shape, is added before the activation
#endif
#if RESIDUAL == 1
#define RESIDUAL_AT(x, y, s) in1_load(x, y, s)
#else
#define RESIDUAL_AT(x, y, s) vec4(0.0)
#endif
#ifndef ROWS_ALONG_LANES
#define ROWS_ALONG_LANES 0  // 1: the dispatch's x runs over row blocks (narrow outputs, one column block)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

#define TAPS (KERNEL_H * KERNEL_W)
// The input columns a block row reads, from x_first * STRIDE_X - PAD_X on.
#define IN_COLS ((OUT_PIXELS - 1) * STRIDE_X + (KERNEL_W - 1) * DILATION_X + 1)

// Spelled out by the plan (registers indexed by constants only, as in
// conv.comp): FOR_PIXELS the block's elements, FOR_COLS its columns,
// FOR_ROWS its rows, FOR_SLICES its output slices, FOR_KX a kernel row's
// taps, FOR_IN_COLS the input columns a block row reads, FOR_IN_ROWS the
// input rows the block reads. These fit the defaults above.
#ifndef FOR_PIXELS
#define FOR_PIXELS(F) F(0) F(1)
#define FOR_COLS(F) F(0) F(1)
#define FOR_ROWS(F) F(0)
#define FOR_SLICES(F) F(0) F(1)
#define FOR_KX(F) F(0) F(1) F(2)
#define FOR_IN_COLS(F) F(0) F(1) F(2) F(3)
#define FOR_IN_ROWS(F) F(0) F(1) F(2)
#endif

vec4 activate_depthwise(vec4 v) { return glpool_activation(DW_ACTIVATION, v, DW_P0, DW_P1); }

void main() {
#if ROWS_ALONG_LANES
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID.yxz);
#else
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
#endif
  int x_first = p.x * OUT_PIXELS;
  int os0 = p.z * OUT_SLICES;  // uniform per work group (LOCAL_Z is 1)
  const int row_blocks = (out0_H + OUT_ROWS - 1) / OUT_ROWS;
  int n = p.y / row_blocks;
  int y_first = (p.y % row_blocks) * OUT_ROWS;
  if (x_first >= out0_W || n >= out0_N) return;
  vec4 acc[OUT_SLICES * BLOCK];
#define INIT_PIXEL(i) acc[b * BLOCK + i] = bias;
#define INIT_SLICE(slice) { const int b = slice; vec4 bias = pw_bias_load(os0 + b); FOR_PIXELS(INIT_PIXEL) }
  FOR_SLICES(INIT_SLICE)
  int y0 = y_first * STRIDE_Y - PAD_Y;
  int x0 = x_first * STRIDE_X - PAD_X;
  for (int s = 0; s < in0_S; ++s) {
    // The block's depthwise values of input slice s.
    vec4 d[BLOCK];
    vec4 dw_b = dw_bias_load(s);
#define INIT_DW(i) d[i] = dw_b;
    FOR_PIXELS(INIT_DW)
    vec4 row[IN_COLS];  // input row iy's texels from column x0 on
#define LOAD_IN_COL(c) { int x = x0 + (c); \
    row[c] = mix(vec4(0.0), in0_load(clamp(x, 0, in0_W - 1), n * in0_H + clamp(iy, 0, in0_H - 1), s), \
                 bvec4(x >= 0 && x < in0_W && iy >= 0 && iy < in0_H)); }
#define LOAD_TAP_WEIGHT(kx) w[kx] = dw_weights_load(w_at + (kx));
#define ADD_TAP(kx) d[r * OUT_PIXELS + i] += row[i * STRIDE_X + (kx) * DILATION_X] * w[kx];
#define DEPTHWISE_COL(col) { const int i = col; FOR_KX(ADD_TAP) }
    // Output row r reads input row j through kernel row (j - r * STRIDE_Y) / DILATION_Y.
#define DEPTHWISE_ROW(rr) { const int r = rr; const int dy = j - r * STRIDE_Y; \
    if (dy >= 0 && dy < KERNEL_H * DILATION_Y && dy % DILATION_Y == 0) { \
      int w_at = s * TAPS + (dy / DILATION_Y) * KERNEL_W; \
      vec4 w[KERNEL_W]; FOR_KX(LOAD_TAP_WEIGHT) FOR_COLS(DEPTHWISE_COL) } }
#define DEPTHWISE_IN_ROW(jj) { const int j = jj; int iy = y0 + j; FOR_IN_COLS(LOAD_IN_COL) FOR_ROWS(DEPTHWISE_ROW) }
    FOR_IN_ROWS(DEPTHWISE_IN_ROW)
#define ACTIVATE_DW(i) d[i] = activate_depthwise(d[i]);
    FOR_PIXELS(ACTIVATE_DW)
    // The pointwise products of input slice s.
#define ACCUMULATE_PIXEL(i) acc[b * BLOCK + i] += w * d[i];
#define ACCUMULATE_SLICE(slice) { const int b = slice; int at = ((os0 + b) * IN_SLICES + s) * 4; \
    mat4 w = mat4(pw_weights_load(at), pw_weights_load(at + 1), pw_weights_load(at + 2), pw_weights_load(at + 3)); \
    FOR_PIXELS(ACCUMULATE_PIXEL) }
    FOR_SLICES(ACCUMULATE_SLICE)
  }
#define STORE_PIXEL(i) \
  if (x_first + COL(i) < out0_W && y_first + ROW(i) < out0_H) \
    out0_store(x_first + COL(i), n * out0_H + y_first + ROW(i), os0 + b, \
               activate(acc[b * BLOCK + i] + RESIDUAL_AT(x_first + COL(i), n * out0_H + y_first + ROW(i), os0 + b)));
#define STORE_SLICE(slice) { const int b = slice; if (os0 + b < out0_S) { FOR_PIXELS(STORE_PIXEL) } }
  FOR_SLICES(STORE_SLICE)
}
