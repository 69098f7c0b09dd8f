#version 310 es
// glpool-tensors: in0 [in1] out0
// glpool-weights: bias
// WinogradOutputTransform (graph/winograd.h): M [N, 36 * Kp, TH, TW] -> Y
// [N, K, OH, OW]. One invocation per tile and output slice: it loads the
// tile's 36 elements (element e of slice s at slice e * S + s, S: Y's
// slices), computes the 4x4 outputs A^T m A, adds the bias and the
// residual (in1, when RESIDUAL), applies the fused activation and stores
// the outputs inside Y. bias: one vec4 per output slice.
#ifndef RESIDUAL
#define RESIDUAL 0
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

#define FOR4(F) F(0) F(1) F(2) F(3)
#define FOR4_INNER(F) F(0) F(1) F(2) F(3)  // FOR4 cannot expand inside FOR4
#define FOR6(F) F(0) F(1) F(2) F(3) F(4) F(5)

// A^T applied to six values: four (the rows of kWinogradAT).
void transform4(vec4 a0, vec4 a1, vec4 a2, vec4 a3, vec4 a4, vec4 a5, out vec4 b0, out vec4 b1, out vec4 b2,
                out vec4 b3) {
  vec4 sum12 = a1 + a2, diff12 = a1 - a2, sum34 = a3 + a4, diff34 = a3 - a4;
  b0 = a0 + sum12 + sum34;
  b1 = diff12 + 2.0 * diff34;
  b2 = sum12 + 4.0 * sum34;
  b3 = diff12 + 8.0 * diff34 + a5;
}

void main() {
  ivec3 p = GLPOOL_OUTPUT_POSITION;  // tile column, n * TH + tile row, output slice
  if (p.x >= in0_W || p.y >= in0_ROWS || p.z >= out0_S) return;
  int n = p.y / in0_H;
  int y0 = (p.y % in0_H) * 4;
  int x0 = p.x * 4;
  vec4 m[36];
#define LOAD(e) m[e] = in0_load(p.x, p.y, (e) * out0_S + p.z);
#define LOAD_ROW(i) LOAD((i) * 6) LOAD((i) * 6 + 1) LOAD((i) * 6 + 2) LOAD((i) * 6 + 3) LOAD((i) * 6 + 4) LOAD((i) * 6 + 5)
  FOR6(LOAD_ROW)
  // A^T m: each of the 6 columns gives 4 values (t[a * 6 + j]); then each
  // of the 4 rows of that gives the 4 outputs (o[a * 4 + b]).
  vec4 t[24];
#define COLUMN(j) transform4(m[(j)], m[6 + (j)], m[12 + (j)], m[18 + (j)], m[24 + (j)], m[30 + (j)], \
                             t[(j)], t[6 + (j)], t[12 + (j)], t[18 + (j)]);
  FOR6(COLUMN)
  vec4 o[16];
#define ROW(a) transform4(t[(a) * 6], t[(a) * 6 + 1], t[(a) * 6 + 2], t[(a) * 6 + 3], t[(a) * 6 + 4], t[(a) * 6 + 5], \
                          o[(a) * 4], o[(a) * 4 + 1], o[(a) * 4 + 2], o[(a) * 4 + 3]);
  FOR4(ROW)
  vec4 bias = bias_load(p.z);
#if RESIDUAL
#define RESIDUAL_AT(x, y) in1_load(x, y, p.z)
#else
#define RESIDUAL_AT(x, y) vec4(0.0)
#endif
#define STORE(b) { int x = x0 + (b); if (x < out0_W && y < out0_H) \
    out0_store(x, n * out0_H + y, p.z, activate(o[a * 4 + (b)] + bias + RESIDUAL_AT(x, n * out0_H + y))); }
#define STORE_ROW(aa) { const int a = aa; int y = y0 + a; FOR4_INNER(STORE) }
  FOR4(STORE_ROW)
}
