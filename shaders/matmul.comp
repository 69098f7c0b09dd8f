#version 310 es
// glpool-tensors: in0 in1 out0
// glpool-weights: bias
// out0 = ALPHA * A @ B (+ bias) for MatMul (batched, numpy broadcasting)
// and Gemm (transA/transB), A = in0 and B = in1 activations or constants.
// One invocation writes one output texel: 4 output channels ("lanes").
//
// Each operand is read through a map from the output's PHWC4 axes: for the
// operand's axes (n, c, h, w), A_MAP/B_MAP give the output axis (0..3) that
// supplies the coordinate, 4 for the reduction index k, -1 for 0 (a
// broadcast or absent axis). From the map the descriptor picks how one step
// of 4 k values is fetched (matmul.cc), as a mat4 whose column j holds the
// 4 lanes' values at k0 + j:
//   1 lanes:     the operand's channels follow the output's: 4 texel loads
//   2 k-vector:  k runs along its channels, lanes share it: 1 texel load
//   3 k per lane: k along its channels, each lane its own texel: 4 loads
//   4 shared:    neither channels nor lanes matter: 4 scalar loads
//   0 scalar:    anything else: 16 scalar loads
#ifndef K_SIZE
#define K_SIZE 5
#endif
#ifndef A_MAP
#define A_MAP ivec4(0, 4, -1, -1)
#define A_MODE 2
#endif
#ifndef B_MAP
#define B_MAP ivec4(4, 1, -1, -1)
#define B_MODE 1
#endif
#ifndef ALPHA
#define ALPHA 1.0
#endif
#ifndef COLUMN_BLOCK
#define COLUMN_BLOCK 0  // 1: 4 output columns per invocation (see main)
#endif
#ifndef BIAS_MODE
#define BIAS_MODE 0  // 0 none, 1 one vec4 per output slice, 2 per (row, slice), 3 per column (W)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

int coord(int code, ivec4 o, int k) { return code == 4 ? k : code < 0 ? 0 : o[code]; }

ivec4 coords(ivec4 map, ivec4 o, int k) {
  return ivec4(coord(map.x, o, k), coord(map.y, o, k), coord(map.z, o, k), coord(map.w, o, k));
}

// The texel holding operand coordinate a = (n, c, h, w).
vec4 texel(int which, ivec4 a) {
  return which == 0 ? in0_load(a.w, a.x * in0_H + a.z, a.y / 4) : in1_load(a.w, a.x * in1_H + a.z, a.y / 4);
}

float scalar(int which, ivec4 a) {
  return which == 0 ? in0_load_scalar(a.x, a.y, a.z, a.w) : in1_load_scalar(a.x, a.y, a.z, a.w);
}

// Operand `which` at k0..k0+3 (k clamped into range: the caller masks the
// tail) for the 4 lanes of output coordinate o (o.y = the slice's channel 0).
mat4 fetch(int which, int mode, ivec4 map, ivec4 o, int k0) {
  mat4 m;
  if (mode == 1) {
    for (int j = 0; j < 4; ++j) m[j] = texel(which, coords(map, o, min(k0 + j, K_SIZE - 1)));
  } else if (mode == 2) {
    vec4 t = texel(which, coords(map, o, k0));
    m = mat4(vec4(t.x), vec4(t.y), vec4(t.z), vec4(t.w));
  } else if (mode == 3) {
    for (int lane = 0; lane < 4; ++lane) {
      ivec4 ol = ivec4(o.x, min(o.y + lane, out0_C - 1), o.z, o.w);
      vec4 t = texel(which, coords(map, ol, k0));
      m[0][lane] = t.x;
      m[1][lane] = t.y;
      m[2][lane] = t.z;
      m[3][lane] = t.w;
    }
  } else if (mode == 4) {
    for (int j = 0; j < 4; ++j) m[j] = vec4(scalar(which, coords(map, o, min(k0 + j, K_SIZE - 1))));
  } else {
    for (int lane = 0; lane < 4; ++lane) {
      ivec4 ol = ivec4(o.x, min(o.y + lane, out0_C - 1), o.z, o.w);
      for (int j = 0; j < 4; ++j) m[j][lane] = scalar(which, coords(map, ol, min(k0 + j, K_SIZE - 1)));
    }
  }
  return m;
}

// Output column x (W), row p.y, slice p.z.
vec4 finish(vec4 acc, ivec3 p, int x) {
  acc *= ALPHA;
#if BIAS_MODE == 1
  acc += bias_load(p.z);
#elif BIAS_MODE == 2
  acc += bias_load(p.y * out0_S + p.z);
#elif BIAS_MODE == 3
  acc += bias_load(x);
#endif
  return activate(acc);
}

#if COLUMN_BLOCK
// B's channels are the output's columns and A ignores the column (a matrix
// times a [K, N] matrix): one invocation writes COLUMN_TEXELS blocks of 4
// neighbouring columns for ROW_SLICES output slices, so each A step is
// loaded once for all its columns and each B texel (4 columns at one k)
// once for all its slices: (4 * ROW_SLICES + 4 * COLUMN_TEXELS) loads per
// 64 * ROW_SLICES * COLUMN_TEXELS multiply-adds. Loads, not arithmetic,
// bound this on llvmpipe (each lane's load is its own).
#ifndef COLUMN_TEXELS
#define COLUMN_TEXELS 1  // 1, 2 or 4
#endif
#ifndef ROW_SLICES
#define ROW_SLICES 1  // 1 to 4
#endif
#if COLUMN_TEXELS == 1
#define FOR_TEXELS(F) F(0)
#elif COLUMN_TEXELS == 2
#define FOR_TEXELS(F) F(0) F(1)
#else
#define FOR_TEXELS(F) F(0) F(1) F(2) F(3)
#endif
#if ROW_SLICES == 1
#define FOR_ROW_SLICES(F) F(0)
#elif ROW_SLICES == 2
#define FOR_ROW_SLICES(F) F(0) F(1)
#elif ROW_SLICES == 3
#define FOR_ROW_SLICES(F) F(0) F(1) F(2)
#else
#define FOR_ROW_SLICES(F) F(0) F(1) F(2) F(3)
#endif
// Unrolled by hand so that the register arrays are indexed by constants
// only (a variable index is served from memory lane by lane on llvmpipe).
#define FOR_K4(F) F(0) F(1) F(2) F(3)
void main() {
  ivec3 p = GLPOOL_OUTPUT_POSITION;
  int x0 = p.x * 4 * COLUMN_TEXELS;
  int z0 = p.z * ROW_SLICES;
  if (x0 >= out0_W || p.y >= out0_ROWS || z0 >= out0_S) return;
  // The last texel of B's channels that holds a column: blocks past the
  // output's edge read it and are never stored.
  int last_x = ((out0_W - 1) / 4) * 4;
  ivec4 o[ROW_SLICES];  // slice s of the block, clamped into the output
#define INIT_O(s) o[s] = ivec4(p.y / out0_H, min(z0 + s, out0_S - 1) * 4, p.y % out0_H, x0);
  FOR_ROW_SLICES(INIT_O)
  mat4 acc[ROW_SLICES * COLUMN_TEXELS];  // [slice][texel], column c: output column x0 + 4 * texel + c
#define INIT_T(t) acc[s * COLUMN_TEXELS + t] = mat4(0.0);
#define INIT_S(slice) { const int s = slice; FOR_TEXELS(INIT_T) }
  FOR_ROW_SLICES(INIT_S)
  mat4 a[ROW_SLICES];
  vec4 b[COLUMN_TEXELS];
#define FETCH_A(s) a[s] = fetch(0, A_MODE, A_MAP, o[s], k0);
#define B_TEXEL(t, k) texel(1, coords(B_MAP, ivec4(o[0].xyz, min(x0 + 4 * (t), last_x)), (k)))
#define LOAD_B(t) b[t] = B_TEXEL(t, k0 + j);
#define MAC_T(t) acc[s * COLUMN_TEXELS + t] += mat4(a[s][j] * b[t].x, a[s][j] * b[t].y, a[s][j] * b[t].z, a[s][j] * b[t].w);
#define MAC_S(slice) { const int s = slice; FOR_TEXELS(MAC_T) }
#define STEP(jj) { const int j = jj; FOR_TEXELS(LOAD_B) FOR_ROW_SLICES(MAC_S) }
  // Whole steps of 4 k: B's 4 x 4 block of each texel column, transposed
  // (column c: column x0 + 4 * t + c's 4 k values), so that each
  // accumulator takes its 4 k at once as a mat4 product: one read and
  // write of each accumulator a step where a product per k cost four
  // (llvmpipe keeps these arrays in memory, 16 vectors a mat4). PP-OCRv4
  // rec's class head alone ([40, 120] x [120, 6625], B cached), one
  // thread: 12.8 -> 6.3 ms; within the model, whose other tensors push B
  // out of the caches, no faster (about 8 ms either way, reading B bound).
  // The sums round in another order (max change 8e-7 on PP-OCRv4 rec).
  mat4 bt[COLUMN_TEXELS];
#define B_AT(t, j) B_TEXEL(t, k0 + (j))
#define LOAD_BT(t) bt[t] = transpose(mat4(B_AT(t, 0), B_AT(t, 1), B_AT(t, 2), B_AT(t, 3)));
#define BLOCK_MAC_T(t) acc[s * COLUMN_TEXELS + t] += a[s] * bt[t];
#define BLOCK_MAC_S(slice) { const int s = slice; FOR_TEXELS(BLOCK_MAC_T) }
  int k0 = 0;
  for (; k0 + 4 <= K_SIZE; k0 += 4) {
    FOR_ROW_SLICES(FETCH_A)
    FOR_TEXELS(LOAD_BT)
    FOR_ROW_SLICES(BLOCK_MAC_S)
  }
  if (k0 < K_SIZE) {  // the last K % 4 steps
    FOR_ROW_SLICES(FETCH_A)
#define TAIL_STEP(jj) if (k0 + jj < K_SIZE) STEP(jj)
    FOR_K4(TAIL_STEP)
  }
#define STORE_T(t) for (int c = 0; c < 4; ++c) { \
    int x = x0 + 4 * t + c; \
    if (x < out0_W) out0_store(x, p.y, z0 + s, finish(acc[s * COLUMN_TEXELS + t][c], ivec3(p.x, p.y, z0 + s), x)); }
#define STORE_S(slice) { const int s = slice; if (z0 + s < out0_S) { FOR_TEXELS(STORE_T) } }
  FOR_ROW_SLICES(STORE_S)
}
#else
void main() {
  ivec3 p = GLPOOL_OUTPUT_POSITION;
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  ivec4 o = ivec4(p.y / out0_H, p.z * 4, p.y % out0_H, p.x);
  vec4 acc = vec4(0.0);
  int k0 = 0;
  for (; k0 + 4 <= K_SIZE; k0 += 4) {
    mat4 a = fetch(0, A_MODE, A_MAP, o, k0);
    mat4 b = fetch(1, B_MODE, B_MAP, o, k0);
    acc += a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  }
  if (k0 < K_SIZE) {
    mat4 a = fetch(0, A_MODE, A_MAP, o, k0);
    mat4 b = fetch(1, B_MODE, B_MAP, o, k0);
    for (int j = 0; j < K_SIZE - k0; ++j) acc += a[j] * b[j];
  }
  out0_store(p.x, p.y, p.z, finish(acc, p, p.x));
}
#endif
