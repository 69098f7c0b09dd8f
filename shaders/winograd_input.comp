#version 310 es
// glpool-tensors: in0 out0
// WinogradInputTransform (graph/winograd.h): X [N, C, H, W] -> V [N, 36 *
// Cp, TH, TW]. One invocation per tile and input slice: it loads the 6x6
// texels the tile reads (zeros outside the image), computes B^T d B for
// the slice's four channels at once and stores element e to slice e * S + s
// (S: X's slices), so that each element's channels are whole slices for
// the 36-group Conv that follows.
#ifndef PAD_Y
#define PAD_Y 1
#define PAD_X 1
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

#define FOR6(F) F(0) F(1) F(2) F(3) F(4) F(5)
#define FOR6_INNER(F) F(0) F(1) F(2) F(3) F(4) F(5)  // FOR6 cannot expand inside FOR6

// B^T applied to six values in place (the rows of kWinogradBT).
void transform6(inout vec4 a0, inout vec4 a1, inout vec4 a2, inout vec4 a3, inout vec4 a4, inout vec4 a5) {
  vec4 b0 = 4.0 * a0 - 5.0 * a2 + a4;
  vec4 b1 = -4.0 * (a1 + a2) + a3 + a4;
  vec4 b2 = 4.0 * (a1 - a2) - a3 + a4;
  vec4 b3 = 2.0 * (a3 - a1) - a2 + a4;
  vec4 b4 = 2.0 * (a1 - a3) - a2 + a4;
  vec4 b5 = 4.0 * a1 - 5.0 * a3 + a5;
  a0 = b0; a1 = b1; a2 = b2; a3 = b3; a4 = b4; a5 = b5;
}

void main() {
  ivec3 p = GLPOOL_OUTPUT_POSITION;  // tile column, n * TH + tile row, input slice
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= in0_S) return;
  int n = p.y / out0_H;
  int y0 = (p.y % out0_H) * 4 - PAD_Y;
  int x0 = p.x * 4 - PAD_X;
  vec4 d[36];
#define LOAD(j) { int x = x0 + (j); \
    d[i * 6 + (j)] = mix(vec4(0.0), in0_load(clamp(x, 0, in0_W - 1), n * in0_H + clamp(y, 0, in0_H - 1), p.z), \
                         bvec4(x >= 0 && x < in0_W && y >= 0 && y < in0_H)); }
#define LOAD_ROW(ii) { const int i = ii; int y = y0 + i; FOR6_INNER(LOAD) }
  FOR6(LOAD_ROW)
  // B^T d: each column; then (B^T d) B: each row.
#define COLUMN(j) transform6(d[(j)], d[6 + (j)], d[12 + (j)], d[18 + (j)], d[24 + (j)], d[30 + (j)]);
#define ROW(i) transform6(d[(i) * 6], d[(i) * 6 + 1], d[(i) * 6 + 2], d[(i) * 6 + 3], d[(i) * 6 + 4], d[(i) * 6 + 5]);
  FOR6(COLUMN)
  FOR6(ROW)
#define STORE(j) out0_store(p.x, p.y, (i * 6 + (j)) * in0_S + p.z, d[i * 6 + (j)]);
#define STORE_ROW(ii) { const int i = ii; FOR6_INNER(STORE) }
  FOR6(STORE_ROW)
}
