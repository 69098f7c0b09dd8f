#version 310 es
// glpool-tensors: in0 out0
// glpool-weights: weights bias
// ONNX ConvTranspose with constant weights, as a gather: output (ox, oy)
// takes input (ix, iy) through tap (kx, ky) when ox = ix * STRIDE_X - PAD_X
// + kx * DILATION_X (same along y), i.e. when ox + PAD_X - kx * DILATION_X is
// a non-negative multiple of the stride inside the input. Gathering keeps
// one writer per output texel (no atomics), and lets OUT_SLICES output
// slices share each input load as in conv.comp, with the same weight layout
// (conv_common.h PackGroupedWeights, indexed by output channel).
//
// PHASES (undilated): the outputs whose t = ox + PAD_X leave the same
// remainder r = t % STRIDE_X (a phase) all take taps kx = r, r + STRIDE_X,
// ..., and output q = t / STRIDE_X reads input column q - m through tap
// r + m * STRIDE_X: within a phase the op is a stride-1 convolution. So an
// invocation computes PIXELS consecutive q of one phase and row, and each
// weight it loads feeds PIXELS products instead of one (a 2x2 stride-2
// upsampling loads a mat4 per product otherwise).
#ifndef OUT_SLICES
#define OUT_SLICES 1
#endif
#ifndef IN_SLICES
#define IN_SLICES 2
#endif
#ifndef IC_PER_GROUP
#define IC_PER_GROUP in0_C
#endif
#ifndef OC_PER_GROUP
#define OC_PER_GROUP out0_C
#endif
#ifndef GROUPED
#define GROUPED 0
#endif
#ifndef KERNEL_H
#define KERNEL_H 3
#define KERNEL_W 3
#define STRIDE_Y 2
#define STRIDE_X 2
#define DILATION_Y 1
#define DILATION_X 1
#define PAD_Y 1
#define PAD_X 1
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

#define TAPS (KERNEL_H * KERNEL_W)

vec4 product(int at, vec4 v) {
  return mat4(weights_load(at), weights_load(at + 1), weights_load(at + 2), weights_load(at + 3)) * v;
}

#ifdef PHASES
#ifndef FOR_SLICES
#define FOR_SLICES(F) F(0)
#endif
#ifndef FOR_PIXELS
#define FOR_PIXELS(F) F(0)
#endif
#ifndef PIXELS
#define PIXELS 1
#endif
#ifndef Q_BLOCKS
#define Q_BLOCKS 1  // blocks of PIXELS outputs per phase along x
#endif
void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  int rx = p.x / Q_BLOCKS;
  int q0 = (p.x % Q_BLOCKS) * PIXELS;
  int os0 = p.z * OUT_SLICES;
  if (rx >= STRIDE_X || p.y >= out0_ROWS || os0 >= out0_S) return;
  int n = p.y / out0_H;
  int oy = p.y % out0_H;
  int ty = oy + PAD_Y;
  int ry = ty % STRIDE_Y;
  int qy = ty / STRIDE_Y;
#if GROUPED
  int first = os0 * 4;
  int last = min(first + 3, out0_C - 1);
  int s_begin = (first / OC_PER_GROUP) * IC_PER_GROUP / 4;
  int s_end = ((last / OC_PER_GROUP + 1) * IC_PER_GROUP + 3) / 4;
#else
  int s_begin = 0;
  int s_end = in0_S;
#endif
  vec4 acc[OUT_SLICES * PIXELS];
#define INIT_PIXEL(i) acc[b * PIXELS + i] = bias;
#define INIT_SLICE(slice) { const int b = slice; vec4 bias = bias_load(os0 + b); FOR_PIXELS(INIT_PIXEL) }
  FOR_SLICES(INIT_SLICE)
  vec4 v[PIXELS];
  // Block element i is q = q0 + i; tap m of the phase reads input column
  // q0 + i - m, which a column outside the input leaves at zero.
#define LOAD_PIXEL(i) { int ix = q0 + (i) - mx; \
    v[i] = mix(vec4(0.0), in0_load(clamp(ix, 0, in0_W - 1), row, s), bvec4(ix >= 0 && ix < in0_W)); }
#define ACCUMULATE_PIXEL(i) acc[b * PIXELS + i] += w * v[i];
#define ACCUMULATE_SLICE(slice) { const int b = slice; \
    int at = (((os0 + b) * TAPS + tap) * IN_SLICES + s - s_begin) * 4; \
    mat4 w = mat4(weights_load(at), weights_load(at + 1), weights_load(at + 2), weights_load(at + 3)); \
    FOR_PIXELS(ACCUMULATE_PIXEL) }
  for (int my = 0; ry + my * STRIDE_Y < KERNEL_H; ++my) {
    int iy = qy - my;
    if (iy < 0 || iy >= in0_H) continue;
    int row = n * in0_H + iy;
    int ky = ry + my * STRIDE_Y;
    for (int s = s_begin; s < s_end; ++s) {
      for (int mx = 0; rx + mx * STRIDE_X < KERNEL_W; ++mx) {
        int tap = ky * KERNEL_W + rx + mx * STRIDE_X;
        FOR_PIXELS(LOAD_PIXEL)
        FOR_SLICES(ACCUMULATE_SLICE)
      }
    }
  }
#define STORE_PIXEL(i) { int ox = (q0 + (i)) * STRIDE_X + rx - PAD_X; \
    if (ox >= 0 && ox < out0_W) out0_store(ox, p.y, os0 + b, activate(acc[b * PIXELS + i])); }
#define STORE_SLICE(slice) { const int b = slice; if (os0 + b < out0_S) { FOR_PIXELS(STORE_PIXEL) } }
  FOR_SLICES(STORE_SLICE)
}
#else
void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  int os0 = p.z * OUT_SLICES;
  if (p.x >= out0_W || p.y >= out0_ROWS || os0 >= out0_S) return;
  vec4 acc[OUT_SLICES];
  for (int b = 0; b < OUT_SLICES; ++b) acc[b] = bias_load(os0 + b);
#if GROUPED
  int first = os0 * 4;
  int last = min(first + 3, out0_C - 1);
  int s_begin = (first / OC_PER_GROUP) * IC_PER_GROUP / 4;
  int s_end = ((last / OC_PER_GROUP + 1) * IC_PER_GROUP + 3) / 4;
#else
  int s_begin = 0;
  int s_end = in0_S;
#endif
  int n = p.y / out0_H;
  int ty = p.y % out0_H + PAD_Y;
  int tx = p.x + PAD_X;
  // Undilated, only taps k = t mod STRIDE, t mod STRIDE + STRIDE, ... can
  // land on an input: step through those alone. Neighbouring outputs (SIMD
  // lanes) then run the same number of taps instead of each skipping most
  // of every lane's taps (a 2x2 stride-2 upsampling does 1 tap, not 4).
#if DILATION_Y == 1
  for (int ky = ty % STRIDE_Y; ky < KERNEL_H; ky += STRIDE_Y) {
    int sy = ty - ky;
    if (sy < 0 || sy / STRIDE_Y >= in0_H) continue;
#else
  for (int ky = 0; ky < KERNEL_H; ++ky) {
    int sy = ty - ky * DILATION_Y;
    if (sy < 0 || sy % STRIDE_Y != 0 || sy / STRIDE_Y >= in0_H) continue;
#endif
    int row = n * in0_H + sy / STRIDE_Y;
#if DILATION_X == 1
    for (int kx = tx % STRIDE_X; kx < KERNEL_W; kx += STRIDE_X) {
      int sx = tx - kx;
      if (sx < 0 || sx / STRIDE_X >= in0_W) continue;
#else
    for (int kx = 0; kx < KERNEL_W; ++kx) {
      int sx = tx - kx * DILATION_X;
      if (sx < 0 || sx % STRIDE_X != 0 || sx / STRIDE_X >= in0_W) continue;
#endif
      int ix = sx / STRIDE_X;
      int tap = ky * KERNEL_W + kx;
      for (int s = s_begin; s < s_end; ++s) {
        vec4 v = in0_load(ix, row, s);
        for (int b = 0; b < OUT_SLICES; ++b) {
          acc[b] += product((((os0 + b) * TAPS + tap) * IN_SLICES + s - s_begin) * 4, v);
        }
      }
    }
  }
  for (int b = 0; b < OUT_SLICES; ++b) {
    if (os0 + b < out0_S) out0_store(p.x, p.y, os0 + b, activate(acc[b]));
  }
}
#endif
