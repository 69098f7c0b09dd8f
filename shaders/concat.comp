#version 310 es
// glpool-tensors: in0 [in1 in2 in3 in4 in5 in6] out0
// Concat of up to 7 inputs (8 bound tensors: the most image units glslang's
// and many GLES drivers' limits allow in one compute shader).
// OFFSETS[j] is where input j starts along the concat axis (OFFSETS[count]
// = the output's size there). Three ways to find an output texel's source:
//   MODE 0: the axis folds into PHWC4 axis AXIS (0 n, 2 h, 3 w); a texel's
//           four lanes come from one texel of one input. Along a folded axis
//           the coordinate is (outer * OUT_DIM + k) * INNER + inner.
//   MODE 1: channel axis, every input starting at a multiple of 4: whole
//           slices move.
//   MODE 2: channel axis otherwise: lane by lane.
#ifndef MODE
#define MODE 1
#endif
#ifndef AXIS
#define AXIS 3
#endif
#ifndef INNER
#define INNER 1
#endif
#ifndef OUT_DIM
#define OUT_DIM 5
#endif
#ifndef NUM_INPUTS
#define NUM_INPUTS 7
#endif
#ifndef OFFSETS
#define OFFSETS int[8](0, 0, 0, 0, 0, 0, 0, 5)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

const int kOffsets[8] = OFFSETS;

// The input holding position k along the concat axis.
int source_of(int k) {
  int j = 0;
  for (int i = 1; i < NUM_INPUTS; ++i) {
    if (k >= kOffsets[i]) j = i;
  }
  return j;
}

// Image and buffer bindings cannot be indexed dynamically: one branch per role.
vec4 load_texel(int j, int x, int y, int s) {
#ifdef in1_N
  if (j == 1) return in1_load(x, y, s);
#endif
#ifdef in2_N
  if (j == 2) return in2_load(x, y, s);
#endif
#ifdef in3_N
  if (j == 3) return in3_load(x, y, s);
#endif
#ifdef in4_N
  if (j == 4) return in4_load(x, y, s);
#endif
#ifdef in5_N
  if (j == 5) return in5_load(x, y, s);
#endif
#ifdef in6_N
  if (j == 6) return in6_load(x, y, s);
#endif
  return in0_load(x, y, s);
}

float load_lane(int j, int n, int c, int h, int w) {
#ifdef in1_N
  if (j == 1) return in1_load_scalar(n, c, h, w);
#endif
#ifdef in2_N
  if (j == 2) return in2_load_scalar(n, c, h, w);
#endif
#ifdef in3_N
  if (j == 3) return in3_load_scalar(n, c, h, w);
#endif
#ifdef in4_N
  if (j == 4) return in4_load_scalar(n, c, h, w);
#endif
#ifdef in5_N
  if (j == 5) return in5_load_scalar(n, c, h, w);
#endif
#ifdef in6_N
  if (j == 6) return in6_load_scalar(n, c, h, w);
#endif
  return in0_load_scalar(n, c, h, w);
}

int height_of(int j) {
#ifdef in1_N
  if (j == 1) return in1_H;
#endif
#ifdef in2_N
  if (j == 2) return in2_H;
#endif
#ifdef in3_N
  if (j == 3) return in3_H;
#endif
#ifdef in4_N
  if (j == 4) return in4_H;
#endif
#ifdef in5_N
  if (j == 5) return in5_H;
#endif
#ifdef in6_N
  if (j == 6) return in6_H;
#endif
  return in0_H;
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int h = p.y % out0_H;
  int w = p.x;
  vec4 v = vec4(0.0);
#if MODE == 0
  ivec4 coord = ivec4(n, 0, h, w);
  int along = coord[AXIS];
  int outer = along / (OUT_DIM * INNER);
  int k = (along / INNER) % OUT_DIM;
  int j = source_of(k);
  int size = kOffsets[j + 1] - kOffsets[j];
  coord[AXIS] = (outer * size + k - kOffsets[j]) * INNER + along % INNER;
  v = load_texel(j, coord.w, coord.x * height_of(j) + coord.z, p.z);
#elif MODE == 1
  int j = source_of(p.z * 4);
  v = load_texel(j, w, p.y, p.z - kOffsets[j] / 4);
#else
  for (int lane = 0; lane < 4; ++lane) {
    int c = p.z * 4 + lane;
    if (c >= out0_C) break;  // padding lanes: the store zeroes them
    int j = source_of(c);
    v[lane] = load_lane(j, n, c - kOffsets[j], h, w);
  }
#endif
  out0_store(p.x, p.y, p.z, activate(v));
}
