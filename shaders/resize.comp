#version 310 es
// glpool-tensors: in0 out0
// glpool-weights: taps
// Resize / Upsample over H and W. The descriptor resolves every coordinate
// transformation and nearest/linear/cubic/antialias rule on the CPU into
// per-axis tap tables, so the shader only gathers: output row i owns
// 2 * CHUNKS vec4s from taps_load(2 * CHUNKS * i), the input indices of its
// TAPS taps, then their weights (output column i after out0_H rows). Index
// -1 marks a source outside the input (tf_crop_and_resize): the output is
// EXTRAPOLATION there. Channels never mix, so every tap is one vec4 load.
#ifndef TAPS
#define TAPS 2  // 1 nearest, 2 linear, 4 cubic, more with antialias
#endif
#define CHUNKS ((TAPS + 3) / 4)
#ifndef EXTRAPOLATION
#define EXTRAPOLATION 0.0
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int oh = p.y % out0_H;
  int row_base = 2 * CHUNKS * oh;
  int col_base = 2 * CHUNKS * (out0_H + p.x);
  vec4 v = vec4(0.0);
  if (taps_load(row_base).x < 0.0 || taps_load(col_base).x < 0.0) {
    v = vec4(EXTRAPOLATION);
  } else {
#if TAPS <= 4
    // One vec4 of indices and one of weights per axis, loaded once.
    ivec4 rows = ivec4(taps_load(row_base));
    vec4 row_weights = taps_load(row_base + 1);
    ivec4 cols = ivec4(taps_load(col_base));
    vec4 col_weights = taps_load(col_base + 1);
    for (int a = 0; a < TAPS; ++a) {
      vec4 sum = vec4(0.0);
      for (int b = 0; b < TAPS; ++b) sum += col_weights[b] * in0_load(cols[b], n * in0_H + rows[a], p.z);
      v += row_weights[a] * sum;
    }
#else
    for (int a = 0; a < TAPS; ++a) {
      int row = int(taps_load(row_base + a / 4)[a % 4]);
      float row_weight = taps_load(row_base + CHUNKS + a / 4)[a % 4];
      if (row_weight == 0.0) continue;
      vec4 sum = vec4(0.0);
      for (int b = 0; b < TAPS; ++b) {
        float col_weight = taps_load(col_base + CHUNKS + b / 4)[b % 4];
        int col = int(taps_load(col_base + b / 4)[b % 4]);
        sum += col_weight * in0_load(col, n * in0_H + row, p.z);
      }
      v += row_weight * sum;
    }
#endif
  }
  out0_store(p.x, p.y, p.z, activate(v));
}
