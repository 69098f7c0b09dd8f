#version 310 es
// glpool-tensors: in0 out0
// glpool-weights: taps
// Resize / Upsample over H and W. The descriptor resolves every coordinate
// transformation and nearest/linear/cubic rule on the CPU into per-axis tap
// tables, so the shader only gathers: taps_data[2 * i] holds the input
// indices of output row i (then of output column i after out0_H rows),
// taps_data[2 * i + 1] their weights. Index -1 marks a source outside the
// input (tf_crop_and_resize): the output is EXTRAPOLATION there.
// Channels never mix, so every tap is one vec4 load.
#ifndef TAPS
#define TAPS 2  // 1 nearest, 2 linear, 4 cubic
#endif
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
  ivec4 rows = ivec4(taps_data[2 * oh]);
  vec4 row_weights = taps_data[2 * oh + 1];
  ivec4 cols = ivec4(taps_data[2 * (out0_H + p.x)]);
  vec4 col_weights = taps_data[2 * (out0_H + p.x) + 1];
  vec4 v = vec4(0.0);
  if (rows.x < 0 || cols.x < 0) {
    v = vec4(EXTRAPOLATION);
  } else {
    for (int a = 0; a < TAPS; ++a) {
      vec4 row = vec4(0.0);
      for (int b = 0; b < TAPS; ++b) row += col_weights[b] * in0_load(cols[b], n * in0_H + rows[a], p.z);
      v += row_weights[a] * row;
    }
  }
  out0_store(p.x, p.y, p.z, activate(v));
}
