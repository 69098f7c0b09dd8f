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
//   MODE 2: channel axis otherwise: each input's texels shifted into place.
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

int slices_of(int j) {
#ifdef in1_N
  if (j == 1) return in1_S;
#endif
#ifdef in2_N
  if (j == 2) return in2_S;
#endif
#ifdef in3_N
  if (j == 3) return in3_S;
#endif
#ifdef in4_N
  if (j == 4) return in4_S;
#endif
#ifdef in5_N
  if (j == 5) return in5_S;
#endif
#ifdef in6_N
  if (j == 6) return in6_S;
#endif
  return in0_S;
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
  // Output lane 0 holds channel `first` of input j. Every input whose
  // channels reach into this slice loads the (at most) two texels holding
  // them, shifts them into place and fills its lanes: whole-texel loads
  // with no per-lane index, where a lane-by-lane gather loaded four texels
  // per output texel and picked a lane from each (shufflenet_v2's Concat of
  // two 58-channel halves at 28x28, one llvmpipe thread: 1.25 -> 0.87 ms).
#define FILL_FROM(j) { \
    int first = p.z * 4 - kOffsets[j]; \
    int size = kOffsets[j + 1] - kOffsets[j]; \
    if (first > -4 && first < size) { \
      int s0 = (first + 4) / 4 - 1;  /* first / 4 rounded down */ \
      int shift = first - s0 * 4; \
      vec4 a = load_texel(j, w, p.y, max(s0, 0)); \
      vec4 b = load_texel(j, w, p.y, min(s0 + 1, slices_of(j) - 1)); \
      vec4 shifted = shift == 0 ? a : shift == 1 ? vec4(a.yzw, b.x) : shift == 2 ? vec4(a.zw, b.xy) : vec4(a.w, b.xyz); \
      ivec4 c = ivec4(first) + ivec4(0, 1, 2, 3); \
      v = mix(v, shifted, bvec4(uvec4(greaterThanEqual(c, ivec4(0))) & uvec4(lessThan(c, ivec4(size))))); \
    } }
  FILL_FROM(0)
#ifdef in1_N
  FILL_FROM(1)
#endif
#ifdef in2_N
  FILL_FROM(2)
#endif
#ifdef in3_N
  FILL_FROM(3)
#endif
#ifdef in4_N
  FILL_FROM(4)
#endif
#ifdef in5_N
  FILL_FROM(5)
#endif
#ifdef in6_N
  FILL_FROM(6)
#endif
#endif
  out0_store(p.x, p.y, p.z, activate(v));
}
