#version 310 es
// glpool-tensors: in0 [in1 in2] out0
// glpool-weights: weights bias
// ONNX Conv with constant weights (a 1-D Conv arrives with H = 1).
//
// One invocation computes a block of OUT_PIXELS consecutive output columns
// by OUT_ROWS rows (of one image) times OUT_SLICES output slices (4 channels
// each): every input texel it loads feeds OUT_SLICES mat4 products and
// every weight it loads feeds OUT_PIXELS * OUT_ROWS of them (rows let
// narrow outputs, whose blocks are few columns wide, still reuse weights).
// Loads, not multiply-adds, bound a convolution here: llvmpipe gathers each
// lane's load separately and GPUs are bandwidth bound, so the block trades
// registers for fewer loads per product.
// Weights depend only on the work group's z and the loop counters, so a
// work group reads them in lockstep (broadcast loads on GPUs); outputs one
// block wide (1x1 after a global pool, depthwise convs in whole rows) run
// their slices along x instead (LANES_ALONG_SLICES, the shader preamble).
//
// Weights: conv_common.h PackGroupedWeights, [out slice][tap][in slice
// - first][4 vec4]; MODE 2 (depthwise) has one vec4 per (slice, tap). bias:
// one vec4 per output slice. Both padded to whole OUT_SLICES blocks.
#ifndef MODE
#define MODE 0  // 0 general (dense or grouped), 1 pointwise (1x1, stride 1, no pads), 2 depthwise
#endif
#ifndef OUT_SLICES
#define OUT_SLICES 1  // output slices per invocation: 1 to 4
#endif
#ifndef OUT_PIXELS
#define OUT_PIXELS 2  // output columns per invocation: 1 to 16 (depthwise: to 32)
#endif
#ifndef OUT_ROWS
#define OUT_ROWS 1  // output rows per invocation
#endif
#define BLOCK (OUT_PIXELS * OUT_ROWS)
// Block element i is column COL(i), row ROW(i) of the block.
#define COL(i) ((i) % OUT_PIXELS)
#define ROW(i) ((i) / OUT_PIXELS)
#ifndef IN_SLICES
#define IN_SLICES 2  // input slices per output slice in the weights
#endif
#ifndef IC_PER_GROUP
#define IC_PER_GROUP in0_C
#endif
#ifndef OC_PER_GROUP
#define OC_PER_GROUP out0_C
#endif
#ifndef GROUPED
#define GROUPED 0  // 1: a block of output slices reads only its groups' input slices
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
#ifndef UNROLL_KX
#define UNROLL_KX 0  // general path: 1 spells a kernel row's taps out (FOR_KX, FOR_IN_TEXELS)
#endif
#ifndef GATED
#define GATED 0  // 1: in1 [1, C, 1, 1] scales X's channels (a fused gate); 2: in1 [N, C, 1, 1]
#endif
// The gate of input slice s for image n (1 without one): every input texel
// is multiplied by it as it is loaded.
#if GATED == 1
#define GATE_AT(s) in1_load(0, 0, s)
#elif GATED == 2
#define GATE_AT(s) in1_load(0, n, s)
#else
#define GATE_AT(s) vec4(1.0)
#endif
#ifndef RESIDUAL
#define RESIDUAL 0  // 1 or 2: that input, of the output's shape, is added before the activation
#endif
#if RESIDUAL == 1
#define RESIDUAL_AT(x, y, s) in1_load(x, y, s)
#elif RESIDUAL == 2
#define RESIDUAL_AT(x, y, s) in2_load(x, y, s)
#else
#define RESIDUAL_AT(x, y, s) vec4(0.0)
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

// FOR_PIXELS(F) / FOR_SLICES(F) expand F(0) F(1) ... once per element /
// slice of the block (the plan spells FOR_PIXELS): unrolled by hand so that
// the block's register arrays are only ever indexed by constants. A loop
// the compiler declines to unroll leaves a variable index, which llvmpipe
// serves from memory lane by lane.
// FOR_ROWS: the block's rows. The depthwise path's plan spells FOR_COLS,
// the block's columns, FOR_KX, the taps of a kernel row, FOR_IN_COLS,
// the input columns a block row reads, and FOR_IN_ROWS, the input rows the
// block reads; UNROLL_KX's spells FOR_KX and
// FOR_IN_TEXELS, every block row's input columns. FOR_TAPS and
// FOR_IN_SLICES, where the plan spells them, replace the tap and input
// slice loops.
// The plan spells them; these fit the defaults above (2 columns, 3 taps).
#ifndef FOR_PIXELS
#define FOR_PIXELS(F) F(0) F(1)
#define FOR_COLS(F) F(0) F(1)
#define FOR_KX(F) F(0) F(1) F(2)
#define FOR_IN_COLS(F) F(0) F(1) F(2) F(3)
#define FOR_IN_ROWS(F) F(0) F(1) F(2)
#define FOR_IN_TEXELS(F) F(0) F(1) F(2) F(3)
#endif
#if OUT_ROWS == 1
#define FOR_ROWS(F) F(0)
#elif OUT_ROWS == 2
#define FOR_ROWS(F) F(0) F(1)
#elif OUT_ROWS == 4
#define FOR_ROWS(F) F(0) F(1) F(2) F(3)
#elif OUT_ROWS == 8
#define FOR_ROWS(F) F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7)
#elif OUT_ROWS == 16
#define FOR_ROWS(F) F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15)
#endif
#if OUT_SLICES == 1
#define FOR_SLICES(F) F(0)
#elif OUT_SLICES == 2
#define FOR_SLICES(F) F(0) F(1)
#elif OUT_SLICES == 3
#define FOR_SLICES(F) F(0) F(1) F(2)
#elif OUT_SLICES == 4
#define FOR_SLICES(F) F(0) F(1) F(2) F(3)
#endif

// The weights of one (output slice, tap, input slice) as a matrix whose
// column j holds input channel j's weights for the 4 output channels.
mat4 weights_at(int at) {
  return mat4(weights_load(at), weights_load(at + 1), weights_load(at + 2), weights_load(at + 3));
}

void main() {
  ivec3 p = GLPOOL_OUTPUT_POSITION;
  int x_first = p.x * OUT_PIXELS;
  // Uniform per work group (LOCAL_Z is 1), unless LANES_ALONG_SLICES.
  int os0 = p.z * OUT_SLICES;
  // p.y counts blocks of OUT_ROWS rows, each inside one image.
  const int row_blocks = (out0_H + OUT_ROWS - 1) / OUT_ROWS;
  int n = p.y / row_blocks;
  int y_first = (p.y % row_blocks) * OUT_ROWS;
  if (x_first >= out0_W || n >= out0_N) return;
  vec4 acc[OUT_SLICES * BLOCK];
#define INIT_PIXEL(i) acc[b * BLOCK + i] = bias;
#define INIT_SLICE(slice) { const int b = slice; vec4 bias = bias_load(os0 + b); FOR_PIXELS(INIT_PIXEL) }
  FOR_SLICES(INIT_SLICE)
  vec4 v[BLOCK];  // the block's input texels for one (tap, input slice)
  // acc[b][i] += w(b) * v[i] for the block: the products of one input slice.
#define ACCUMULATE_PIXEL(i) acc[b * BLOCK + i] += w * v[i];
#define ACCUMULATE_SLICE(slice) { const int b = slice; mat4 w = weights_at(WEIGHTS_OF(os0 + b)); FOR_PIXELS(ACCUMULATE_PIXEL) }
#if MODE == 1
#ifdef WEIGHTS_BY_LANE_BATCH
  // [batch of WEIGHTS_BY_LANE_BATCH slice blocks][in slice][block of the
  // batch][slice of the block][4 vec4] (conv_common.h LaneBatchMajor).
  int slice_block = os0 / OUT_SLICES;
#define WEIGHTS_OF(slice) \
  (((((slice_block / WEIGHTS_BY_LANE_BATCH) * IN_SLICES + s) * WEIGHTS_BY_LANE_BATCH + \
     slice_block % WEIGHTS_BY_LANE_BATCH) * OUT_SLICES + (slice) - os0) * 4)
#else
#define WEIGHTS_OF(slice) (((slice) * IN_SLICES + s) * 4)
#endif
  // Columns and rows past the output's edge read the last one and are never
  // stored.
#define LOAD_PIXEL(i) v[i] = in0_load(min(x_first + COL(i), out0_W - 1), n * in0_H + min(y_first + ROW(i), in0_H - 1), s) * gate;
  // The products of input slice s.
#define POINTWISE_SLICE { vec4 gate = GATE_AT(s); FOR_PIXELS(LOAD_PIXEL) FOR_SLICES(ACCUMULATE_SLICE) }
#ifdef FOR_IN_SLICES
  // Few input slices: spelled out (conv.cc), no loop to carry acc round.
#define SPELLED_PW_SLICE(ss) { const int s = ss; POINTWISE_SLICE }
  FOR_IN_SLICES(SPELLED_PW_SLICE)
#else
  for (int s = 0; s < in0_S; ++s) POINTWISE_SLICE
#endif
#elif MODE == 2
  // Depthwise: output slice os0 reads input slice os0 alone. The block
  // walks the input rows its OUT_ROWS output rows read, each once: a row's
  // IN_COLS texels, loaded once, feed every output row whose window holds
  // it, every column and every tap. So a block of R rows loads
  // R + KERNEL_H - 1 input rows rather than R * KERNEL_H: loads, not
  // products, bound it. The plan spells the input rows out (FOR_IN_ROWS):
  // j and dy are then constants, so each row feeds exactly the output rows
  // whose window holds it with no test left at run time, and the
  // accumulators are never carried round a loop (on llvmpipe every write of
  // a value carried round a loop is blended with the lanes' mask). Rows and
  // columns in the padding load zeros.
  int y0 = y_first * STRIDE_Y - PAD_Y;
  int x0 = x_first * STRIDE_X - PAD_X;
  int s = os0;
  vec4 gate = GATE_AT(s);
  vec4 row[IN_COLS];  // input row iy's texels from column x0 on
#define LOAD_IN_COL(c) { int x = x0 + (c); \
    row[c] = mix(vec4(0.0), in0_load(clamp(x, 0, in0_W - 1), n * in0_H + clamp(iy, 0, in0_H - 1), s) * gate, \
                 bvec4(x >= 0 && x < in0_W && iy >= 0 && iy < in0_H)); }
#define LOAD_TAP_WEIGHT(kx) w[kx] = weights_load(w_at + (kx));
#define ADD_TAP(kx) acc[r * OUT_PIXELS + i] += row[i * STRIDE_X + (kx) * DILATION_X] * w[kx];
#define DEPTHWISE_COL(col) { const int i = col; FOR_KX(ADD_TAP) }
  // Output row r reads input row j through kernel row (j - r * STRIDE_Y) / DILATION_Y.
#define DEPTHWISE_ROW(rr) { const int r = rr; const int dy = j - r * STRIDE_Y; \
    if (dy >= 0 && dy < KERNEL_H * DILATION_Y && dy % DILATION_Y == 0) { \
      int w_at = os0 * TAPS + (dy / DILATION_Y) * KERNEL_W; \
      vec4 w[KERNEL_W]; FOR_KX(LOAD_TAP_WEIGHT) FOR_COLS(DEPTHWISE_COL) } }
#define DEPTHWISE_IN_ROW(jj) { const int j = jj; int iy = y0 + j; FOR_IN_COLS(LOAD_IN_COL) FOR_ROWS(DEPTHWISE_ROW) }
  FOR_IN_ROWS(DEPTHWISE_IN_ROW)
#else
  int y0 = y_first * STRIDE_Y - PAD_Y;
#if GROUPED
  int first = os0 * 4;
  // A block of several slices lies within one group (conv.cc).
  int last = min(first + 4 * OUT_SLICES - 1, out0_C - 1);
  int s_begin = (first / OC_PER_GROUP) * IC_PER_GROUP / 4;
  int s_end = ((last / OC_PER_GROUP + 1) * IC_PER_GROUP + 3) / 4;
#else
  int s_begin = 0;
  int s_end = in0_S;
#endif
#define WEIGHTS_OF(slice) ((((slice) * TAPS + tap) * IN_SLICES + s - s_begin) * 4)
  // Element i of the block reads input x = (x_first + COL(i)) * STRIDE_X -
  // PAD_X + kx * DILATION_X and y = iy + ROW(i) * STRIDE_Y, clamped into the
  // image; taps in the padding select 0. (Columns and rows past the output's
  // edge compute garbage-free values never stored.)
#define LOAD_TAP_PIXEL(i) { \
    int x = (x_first + COL(i)) * STRIDE_X - PAD_X + kx * DILATION_X; \
    int y = iy + ROW(i) * STRIDE_Y; \
    v[i] = mix(vec4(0.0), in0_load(clamp(x, 0, in0_W - 1), n * in0_H + clamp(y, 0, in0_H - 1), s) * gate, \
               bvec4(x >= 0 && x < in0_W && y >= 0 && y < in0_H)); }
  // The products of one tap and input slice.
#define TAP_PRODUCTS FOR_PIXELS(LOAD_TAP_PIXEL) FOR_SLICES(ACCUMULATE_SLICE)
  // One tap to the right, column i reads what column i + SHIFT read: taps
  // overlap (stride 1 with small dilation), so only the last SHIFT columns
  // need new loads.
#if DILATION_X % STRIDE_X == 0 && DILATION_X / STRIDE_X < OUT_PIXELS
#define SHIFT (DILATION_X / STRIDE_X)
#define SHIFT_OR_LOAD_PIXEL(i) if (COL(i) + SHIFT < OUT_PIXELS) v[i] = v[min(i + SHIFT, BLOCK - 1)]; else LOAD_TAP_PIXEL(i)
#else
#define SHIFT 0
#endif
#if UNROLL_KX
  // Per kernel row and input slice, each block row's IN_COLS input texels
  // are loaded once (block element e: row e / IN_COLS, column e % IN_COLS)
  // and the row's taps are spelled out: no texel is carried from one tap
  // to the next, and an accumulator takes all the row's taps before its
  // one write per loop pass (llvmpipe blends every write of a value carried
  // round a loop with the lanes' mask; conv.cc says where this pays).
  int x0 = x_first * STRIDE_X - PAD_X;
  vec4 in_texels[OUT_ROWS * IN_COLS];
#define LOAD_IN_TEXEL(e) { int x = x0 + (e) % IN_COLS; int y = iy + ((e) / IN_COLS) * STRIDE_Y; \
    in_texels[e] = mix(vec4(0.0), in0_load(clamp(x, 0, in0_W - 1), n * in0_H + clamp(y, 0, in0_H - 1), s) * gate, \
                       bvec4(x >= 0 && x < in0_W && y >= 0 && y < in0_H)); }
#define TAP_PIXEL(i) acc[b * BLOCK + i] += w * in_texels[ROW(i) * IN_COLS + COL(i) * STRIDE_X + kx * DILATION_X];
#define TAP_SLICE(slice) { const int b = slice; mat4 w = weights_at(WEIGHTS_OF(os0 + b)); FOR_PIXELS(TAP_PIXEL) }
#define TAP(k) { const int kx = k; int tap = ky * KERNEL_W + kx; FOR_SLICES(TAP_SLICE) }
#define ROW_SLICE(j) { int s = s_begin + (j); vec4 gate = GATE_AT(s); FOR_IN_TEXELS(LOAD_IN_TEXEL) FOR_KX(TAP) }
  for (int ky = 0; ky < KERNEL_H; ++ky) {
    int iy = y0 + ky * DILATION_Y;  // the block's first row reads input row iy
#ifdef FOR_IN_SLICES
    // Few input slices (a group's, conv.cc): spelled out, so that each
    // accumulator takes a kernel row's products over all of them before
    // its one masked write; rows in the padding load zeros.
    FOR_IN_SLICES(ROW_SLICE)
#else
#if OUT_ROWS == 1
    if (iy < 0 || iy >= in0_H) continue;
#endif
    for (int s = s_begin; s < s_end; ++s) {
      vec4 gate = GATE_AT(s);
      FOR_IN_TEXELS(LOAD_IN_TEXEL)
      FOR_KX(TAP)
    }
#endif
  }
#elif defined(FOR_TAPS)
  // Every tap and input slice spelled out (stems, conv.cc): no loop to
  // carry acc round; taps in the padding load zeros.
#define SPELLED_SLICE(ss) { const int s = ss; vec4 gate = GATE_AT(s); TAP_PRODUCTS }
#define SPELLED_TAP(t) { const int tap = t; const int ky = (t) / KERNEL_W; const int kx = (t) % KERNEL_W; \
    int iy = y0 + ky * DILATION_Y; FOR_IN_SLICES(SPELLED_SLICE) }
  FOR_TAPS(SPELLED_TAP)
#else
  for (int ky = 0; ky < KERNEL_H; ++ky) {
    int iy = y0 + ky * DILATION_Y;  // the block's first row reads input row iy
#if OUT_ROWS == 1
    if (iy < 0 || iy >= in0_H) continue;
#endif
    for (int s = s_begin; s < s_end; ++s) {
      vec4 gate = GATE_AT(s);
      for (int kx = 0; kx < KERNEL_W; ++kx) {
        int tap = ky * KERNEL_W + kx;
#if SHIFT > 0
        if (kx > 0) {
          FOR_PIXELS(SHIFT_OR_LOAD_PIXEL)
        } else {
          FOR_PIXELS(LOAD_TAP_PIXEL)
        }
        FOR_SLICES(ACCUMULATE_SLICE)
#else
        TAP_PRODUCTS
#endif
      }
    }
  }
#endif
#endif
#define STORE_PIXEL(i) \
  if (x_first + COL(i) < out0_W && y_first + ROW(i) < out0_H) \
    out0_store(x_first + COL(i), n * out0_H + y_first + ROW(i), os0 + b, \
               activate(acc[b * BLOCK + i] + RESIDUAL_AT(x_first + COL(i), n * out0_H + y_first + ROW(i), os0 + b)));
#define STORE_SLICE(slice) { const int b = slice; if (os0 + b < out0_S) { FOR_PIXELS(STORE_PIXEL) } }
  FOR_SLICES(STORE_SLICE)
}
