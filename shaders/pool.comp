#version 310 es
// glpool-tensors: in0 out0 [out1]
// MaxPool / AveragePool over H and W (GLOBAL 0), or GlobalAveragePool /
// GlobalMaxPool (GLOBAL 1). Channels never mix, so every path works on whole
// vec4 slices; padding lanes are zero in and zeroed again by the store.
#ifndef GLOBAL
#define GLOBAL 0
#endif
#ifndef IS_MAX
#define IS_MAX 1  // 0: average
#endif
// MaxPool's optional Indices output (out1): the flat input index of each
// window's maximum, n * C * D * H * W + c * D * H * W plus the cell's
// position in its D x H x W plane, row-major or, with STORAGE_ORDER 1,
// column-major (w, then h, then d). The first valid cell starts the window
// and only a strictly larger value replaces it, as the CPU reference does,
// so ties keep the first cell. Stored as whole-number floats (int64 tensors
// live in float storage; the descriptor keeps them below 2^24).
#ifndef WITH_INDICES
#define WITH_INDICES 0
#endif
#ifndef STORAGE_ORDER
#define STORAGE_ORDER 0
#endif
// Windowed pools run over (D, H, W), D folded into PHWC4 rows: row
// n * H + d * IN_H + h of the input (IN_H = in0_H / IN_D); 2-D pools have
// D = 1. MaxPool only skips padded cells; AveragePool divides by the cells
// it counts.
#ifndef IN_D
#define IN_D 1
#define OUT_D 1
#define KERNEL_D 1
#define STRIDE_D 1
#define DILATION_D 1
#define PAD_D 0
#define PAD_END_D 0
#endif
#ifndef KERNEL_H
#define KERNEL_H 2
#define KERNEL_W 2
#define STRIDE_H 2
#define STRIDE_W 2
#define DILATION_H 1
#define DILATION_W 1
#define PAD_H 0
#define PAD_W 0
#define PAD_END_H 0
#define PAD_END_W 0
#endif
#ifndef BLOCKED
#define BLOCKED 0  // 1: the 2-D block path below (pool.cc spells its FOR_ lists)
#endif
#ifndef COUNT_INCLUDE_PAD
#define COUNT_INCLUDE_PAD 0
#endif
#ifndef LOCAL_X
#define LOCAL_X 64
#define LOCAL_Y 1
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

// Below every finite value (fp16 storage turns it into -inf, as the
// reference has for an empty window).
const float kLowest = -3.402823e38;

#if GLOBAL == 2
// One invocation per (n, slice) walks the whole plane: small planes (SE
// blocks' 7x7..28x28) cost more in the tree's barriers than in the loads.
void main() {
  int s = int(GLPOOL_GLOBAL_ID.x);
  int n = int(GLPOOL_GLOBAL_ID.y);
  if (s >= in0_S) return;
  vec4 acc = vec4(IS_MAX == 1 ? kLowest : 0.0);
  for (int y = 0; y < in0_H; ++y) {
    for (int x = 0; x < in0_W; ++x) {
      vec4 v = in0_load(x, n * in0_H + y, s);
#if IS_MAX
      acc = max(acc, v);
#else
      acc += v;
#endif
    }
  }
#if !IS_MAX
  acc /= float(in0_H * in0_W);
#endif
  out0_store(0, n, s, activate(acc));
}

#elif GLOBAL
// One work group per (n, slice): its LOCAL_X invocations stride over the
// H x W plane, then fold their partial results in shared memory.
shared vec4 partial[LOCAL_X];

#if IS_MAX
#define FOLD(a, b) max(a, b)
#else
#define FOLD(a, b) ((a) + (b))
#endif
#define FOLD_STEP(k)                                                                   \
  if (LOCAL_X > k && tid < k) partial[tid] = FOLD(partial[tid], partial[tid + k]); \
  memoryBarrierShared();                                                               \
  barrier();

void main() {
  int tid = int(gl_LocalInvocationID.x);
  int n = int(GLPOOL_GROUP_ID.y);
  int s = int(GLPOOL_GROUP_ID.z);
  vec4 acc = vec4(IS_MAX == 1 ? kLowest : 0.0);
  for (int i = tid; i < in0_H * in0_W; i += LOCAL_X) {
    vec4 v = in0_load(i % in0_W, n * in0_H + i / in0_W, s);
#if IS_MAX
    acc = max(acc, v);
#else
    acc += v;
#endif
  }
  // GLSL ES allows barrier() only directly in main(), outside control flow:
  // the tree is unrolled for every power of two up to 64 (LOCAL_X is one).
  partial[tid] = acc;
  memoryBarrierShared();
  barrier();
  FOLD_STEP(32) FOLD_STEP(16) FOLD_STEP(8) FOLD_STEP(4) FOLD_STEP(2) FOLD_STEP(1)
  if (tid == 0) {
    vec4 result = partial[0];
#if !IS_MAX
    result /= float(in0_H * in0_W);
#endif
    out0_store(0, n, s, activate(result));
  }
}

#else
const int kInH = in0_H / IN_D;
const int kOutH = out0_H / OUT_D;

// Of a window's cells start + k * dilation (k < kernel), those in [0, limit)
// and those below `limit` (the window starts inside the leading padding).
int cellsInside(int start, int kernel, int dilation, int limit) {
  int count = 0;
  for (int k = 0; k < kernel; ++k) {
    int i = start + k * dilation;
    if (i >= 0 && i < limit) ++count;
  }
  return count;
}
int cellsBelow(int start, int kernel, int dilation, int limit) {
  int count = 0;
  for (int k = 0; k < kernel; ++k) {
    if (start + k * dilation < limit) ++count;
  }
  return count;
}

// AveragePool's divisor for the window starting at (d0, h0, w0): the
// cells inside the input or, with count_include_pad, inside the padded
// input (never those a ceil-mode window reaches beyond the end padding);
// cells lie DILATION apart (AveragePool 19).
int averageCount(int d0, int h0, int w0) {
#if COUNT_INCLUDE_PAD
  return cellsBelow(d0, KERNEL_D, DILATION_D, IN_D + PAD_END_D) *
         cellsBelow(h0, KERNEL_H, DILATION_H, kInH + PAD_END_H) *
         cellsBelow(w0, KERNEL_W, DILATION_W, in0_W + PAD_END_W);
#else
  return cellsInside(d0, KERNEL_D, DILATION_D, IN_D) * cellsInside(h0, KERNEL_H, DILATION_H, kInH) *
         cellsInside(w0, KERNEL_W, DILATION_W, in0_W);
#endif
}

#if BLOCKED
// 2-D MaxPool without Indices and 2-D AveragePool: one invocation computes
// OUT_COLS consecutive output columns by OUT_ROWS rows of one slice. It
// walks the input rows the block reads, each once (FOR_IN_ROWS), loading
// the row's IN_COLS texels once (FOR_IN_COLS) for every output column and
// row whose window holds them, where one output per invocation loaded
// every cell of its window (KERNEL_H * KERNEL_W loads per output) inside
// loops whose padding tests llvmpipe runs under the lanes' mask. Cells
// outside the input load what leaves the result alone: kLowest for a max
// (an all-padding window stays kLowest, as above), zero for a sum.
#if IS_MAX
#define OUTSIDE kLowest
#define TAKE(acc, v) max(acc, v)
#else
#define OUTSIDE 0.0
#define TAKE(acc, v) ((acc) + (v))
#endif
#define IN_COLS ((OUT_COLS - 1) * STRIDE_W + (KERNEL_W - 1) * DILATION_W + 1)
void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  const int row_blocks = (out0_H + OUT_ROWS - 1) / OUT_ROWS;
  int x_first = p.x * OUT_COLS;
  int n = p.y / row_blocks;
  int y_first = (p.y % row_blocks) * OUT_ROWS;
  if (x_first >= out0_W || n >= out0_N || p.z >= out0_S) return;
  int x0 = x_first * STRIDE_W - PAD_W;
  int y0 = y_first * STRIDE_H - PAD_H;
  vec4 acc[OUT_ROWS * OUT_COLS];
#define INIT_ACC(i) acc[i] = vec4(OUTSIDE);
  FOR_BLOCK(INIT_ACC)
  vec4 row[IN_COLS];
#define LOAD_IN_COL(c) { int x = x0 + (c); \
    row[c] = mix(vec4(OUTSIDE), in0_load(clamp(x, 0, in0_W - 1), n * in0_H + clamp(iy, 0, in0_H - 1), p.z), \
                 bvec4(x >= 0 && x < in0_W && iy >= 0 && iy < in0_H)); }
#define TAKE_TAP(kx) acc[r * OUT_COLS + i] = TAKE(acc[r * OUT_COLS + i], row[i * STRIDE_W + (kx) * DILATION_W]);
#define TAKE_COL(col) { const int i = col; FOR_KX(TAKE_TAP) }
  // Output row r reads input row j through kernel row (j - r * STRIDE_H) / DILATION_H.
#define TAKE_ROW(rr) { const int r = rr; const int dy = j - r * STRIDE_H; \
    if (dy >= 0 && dy < KERNEL_H * DILATION_H && dy % DILATION_H == 0) { FOR_COLS(TAKE_COL) } }
#define IN_ROW(jj) { const int j = jj; int iy = y0 + j; FOR_IN_COLS(LOAD_IN_COL) FOR_ROWS(TAKE_ROW) }
  FOR_IN_ROWS(IN_ROW)
#if IS_MAX
#define POOLED(i, x, y) acc[i]
#else
#define POOLED(i, x, y) (acc[i] / float(max(averageCount(0, (y) * STRIDE_H - PAD_H, (x) * STRIDE_W - PAD_W), 1)))
#endif
#define STORE_ACC(i) { int x = x_first + (i) % OUT_COLS; int y = y_first + (i) / OUT_COLS; \
    if (x < out0_W && y < out0_H) out0_store(x, n * out0_H + y, p.z, activate(POOLED(i, x, y))); }
  FOR_BLOCK(STORE_ACC)
}
#else
void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int od = p.y % out0_H / kOutH;
  int oh = p.y % kOutH;
  int d0 = od * STRIDE_D - PAD_D;
  int h0 = oh * STRIDE_H - PAD_H;
  int w0 = p.x * STRIDE_W - PAD_W;
#if IS_MAX
  vec4 acc = vec4(kLowest);
#if WITH_INDICES
  vec4 best = vec4(-1.0);  // cell of acc in its plane; -1 for an empty window, as the reference has
  bool first = true;
#endif
  for (int kd = 0; kd < KERNEL_D; ++kd) {
    int id = d0 + kd * DILATION_D;
    if (id < 0 || id >= IN_D) continue;
    for (int kh = 0; kh < KERNEL_H; ++kh) {
      int ih = h0 + kh * DILATION_H;
      if (ih < 0 || ih >= kInH) continue;
      for (int kw = 0; kw < KERNEL_W; ++kw) {
        int iw = w0 + kw * DILATION_W;
        if (iw < 0 || iw >= in0_W) continue;
        vec4 v = in0_load(iw, n * in0_H + id * kInH + ih, p.z);
#if WITH_INDICES
#if STORAGE_ORDER
        float cell = float((iw * kInH + ih) * IN_D + id);
#else
        float cell = float((id * kInH + ih) * in0_W + iw);
#endif
        bvec4 replace = first ? bvec4(true) : greaterThan(v, acc);
        first = false;
        acc = mix(acc, v, replace);
        best = mix(best, vec4(cell), replace);
#else
        acc = max(acc, v);
#endif
      }
    }
  }
  vec4 result = acc;
#if WITH_INDICES
  // Plane (n, c) starts at flat index (n * C + c) * D * H * W.
  ivec4 planes = ivec4(n * in0_C + p.z * 4) + ivec4(0, 1, 2, 3);
  out1_store(p.x, p.y, p.z, vec4(planes * (in0_H * in0_W)) + best);
#endif
#else
  vec4 acc = vec4(0.0);
  for (int kd = 0; kd < KERNEL_D; ++kd) {
    int id = d0 + kd * DILATION_D;
    if (id < 0 || id >= IN_D) continue;
    for (int kh = 0; kh < KERNEL_H; ++kh) {
      int ih = h0 + kh * DILATION_H;
      if (ih < 0 || ih >= kInH) continue;
      for (int kw = 0; kw < KERNEL_W; ++kw) {
        int iw = w0 + kw * DILATION_W;
        if (iw < 0 || iw >= in0_W) continue;
        acc += in0_load(iw, n * in0_H + id * kInH + ih, p.z);
      }
    }
  }
  vec4 result = acc / float(max(averageCount(d0, h0, w0), 1));
#endif
  out0_store(p.x, p.y, p.z, activate(result));
}
#endif  // BLOCKED
#endif
