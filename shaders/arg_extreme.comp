#version 310 es
// glpool-tensors: in0 out0
// ArgMax / ArgMin along one axis (arg_extreme.cc): one invocation per output
// texel, each lane walking the DIM elements of its row. The input viewed as
// OUTER x DIM x INNER (row-major) has the output, keepdims or not, as
// OUTER x INNER, so output flat index f = o * INNER + i reads input elements
// (o * DIM + k) * INNER + i. Indices are stored as whole-number floats
// (int64 tensors live in float storage).
#ifndef WANT_MAX
#define WANT_MAX 1  // 0: ArgMin
#endif
#ifndef SELECT_LAST
#define SELECT_LAST 0  // 1: ties go to the last index, else the first
#endif
#ifndef DIM
#define DIM 7
#define INNER 13
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

float load_flat(int g) {
  int w = g % in0_W;
  g /= in0_W;
  int h = g % in0_H;
  g /= in0_H;
  return in0_load_scalar(g / in0_C, g % in0_C, h, w);
}

// Whether v replaces the best value b so far. Written as the CPU reference
// writes it, so NaNs (never better) and ties pick the same index.
bool better(float v, float b) {
#if WANT_MAX
  return v > b || (SELECT_LAST == 1 && v == b);
#else
  return v < b || (SELECT_LAST == 1 && v == b);
#endif
}

float arg_extreme(int f) {
  int base = f / INNER * DIM * INNER + f % INNER;
  int best = 0;
  float best_value = load_flat(base);
  for (int k = 1; k < DIM; ++k) {
    float v = load_flat(base + k * INNER);
    if (better(v, best_value)) {
      best = k;
      best_value = v;
    }
  }
  return float(best);
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int h = p.y % out0_H;
  vec4 v = vec4(0.0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = p.z * 4 + lane;
    if (c >= out0_C) break;  // padding lanes: the store zeroes them
    v[lane] = arg_extreme(((n * out0_C + c) * out0_H + h) * out0_W + p.x);
  }
  out0_store(p.x, p.y, p.z, v);
}
