#version 310 es
// glpool-tensors: in0 [in1 in2 in3 in4 in5 in6] out0
// Elementwise ops over NUM_INPUTS inputs with ONNX (numpy) broadcasting,
// out0 = activate(result / DIVISOR) (DIVISOR: Mean's input count, else 1):
// - OP 0..15 fold left over the inputs, ((in0 OP in1) OP in2) ...; all but
//   Sum/Mean (0), Max (6) and Min (7) have exactly two inputs;
// - OP 16 (Where): in0 != 0 ? in1 : in2.
// Integer and bool tensors hold whole numbers in float storage: bool
// results are 1.0 / 0.0, and INT_OUT (the output dtype is an integer) makes
// Div, Mod and Pow return the whole numbers integer arithmetic would.
// FMOD: Mod's fmod attribute (1: sign of the dividend, as C's fmod; 0: sign
// of the divisor, as Python's %).
// Input k is read through a map from output axes (n, c, h, w) to its own
// axes: IN_MAPS[k] = ivec4 of output-axis indices, -1 where it broadcasts;
// IN_SAME[k] says how:
//   1: the output's exact layout: one vec4 load;
//   2: the output's channels, broadcast along n, h or w (a per-channel
//      scale, a squeeze-and-excitation gate): one vec4 load of its texel;
//   3: one value for all 4 lanes (nothing maps to the output's channels:
//      a scalar, a per-column bias): one scalar load;
//   0: lane by lane (4 scalar loads);
//   4: a nearest upsample of the output's channels by UP_Y x UP_X (graph.h
//      kNearestUpsampledInputAttr): one vec4 load at (h / UP_Y, w / UP_X).
#ifndef OP
#define OP 0
#endif
// OP codes (elementwise_binary.cc): 0 Add/Sum/Mean, 1 Sub, 2 Mul, 3 Div,
// 4 Pow, 5 Mod, 6 Max, 7 Min, 8 Equal, 9 Less, 10 Greater, 11 LessOrEqual,
// 12 GreaterOrEqual, 13 And, 14 Or, 15 Xor, 16 Where.
#ifndef NUM_INPUTS
#define NUM_INPUTS 7
#endif
#ifndef IN_SAME
#define IN_SAME int[7](1, 0, 1, 0, 1, 0, 1)
#define IN_MAPS ivec4[7](ivec4(0, 1, 2, 3), ivec4(-1, 1, -1, -1), ivec4(0, 1, 2, 3), ivec4(-1, -1, 2, 3), \
    ivec4(0, 1, 2, 3), ivec4(0, -1, -1, 3), ivec4(0, 1, 2, 3))
#endif
#ifndef UP_Y
#define UP_Y 1
#define UP_X 1
#endif
#ifndef INT_OUT
#define INT_OUT 0
#endif
#ifndef FMOD
#define FMOD 0
#endif
#ifndef DIVISOR
#define DIVISOR 1.0
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

const int kSame[7] = IN_SAME;
const ivec4 kMaps[7] = IN_MAPS;

int pick(ivec4 coords, int axis) {
  return axis < 0 ? 0 : (axis == 0 ? coords.x : axis == 1 ? coords.y : axis == 2 ? coords.z : coords.w);
}

ivec4 mapped(ivec4 out_coords, ivec4 map) {
  return ivec4(pick(out_coords, map.x), pick(out_coords, map.y), pick(out_coords, map.z), pick(out_coords, map.w));
}

// Input k's texel at p (same layout as the output).
vec4 load_texel(int k, ivec3 p) {
#ifdef in1_N
  if (k == 1) return in1_load(p.x, p.y, p.z);
#endif
#ifdef in2_N
  if (k == 2) return in2_load(p.x, p.y, p.z);
#endif
#ifdef in3_N
  if (k == 3) return in3_load(p.x, p.y, p.z);
#endif
#ifdef in4_N
  if (k == 4) return in4_load(p.x, p.y, p.z);
#endif
#ifdef in5_N
  if (k == 5) return in5_load(p.x, p.y, p.z);
#endif
#ifdef in6_N
  if (k == 6) return in6_load(p.x, p.y, p.z);
#endif
  return in0_load(p.x, p.y, p.z);
}

// Input k's texel at its own column x, batch n, row h and slice s.
vec4 load_texel_at(int k, int x, int n, int h, int s) {
#ifdef in1_N
  if (k == 1) return in1_load(x, n * in1_H + h, s);
#endif
#ifdef in2_N
  if (k == 2) return in2_load(x, n * in2_H + h, s);
#endif
#ifdef in3_N
  if (k == 3) return in3_load(x, n * in3_H + h, s);
#endif
#ifdef in4_N
  if (k == 4) return in4_load(x, n * in4_H + h, s);
#endif
#ifdef in5_N
  if (k == 5) return in5_load(x, n * in5_H + h, s);
#endif
#ifdef in6_N
  if (k == 6) return in6_load(x, n * in6_H + h, s);
#endif
  return in0_load(x, n * in0_H + h, s);
}

// Input k's element at its own (n, c, h, w).
float load_lane(int k, ivec4 i) {
#ifdef in1_N
  if (k == 1) return in1_load_scalar(i.x, i.y, i.z, i.w);
#endif
#ifdef in2_N
  if (k == 2) return in2_load_scalar(i.x, i.y, i.z, i.w);
#endif
#ifdef in3_N
  if (k == 3) return in3_load_scalar(i.x, i.y, i.z, i.w);
#endif
#ifdef in4_N
  if (k == 4) return in4_load_scalar(i.x, i.y, i.z, i.w);
#endif
#ifdef in5_N
  if (k == 5) return in5_load_scalar(i.x, i.y, i.z, i.w);
#endif
#ifdef in6_N
  if (k == 6) return in6_load_scalar(i.x, i.y, i.z, i.w);
#endif
  return in0_load_scalar(i.x, i.y, i.z, i.w);
}

// Input k's values for the output texel at p.
vec4 operand(int k, ivec3 p) {
  if (kSame[k] == 1) return load_texel(k, p);
  int n = p.y / out0_H, h = p.y % out0_H;
  if (kSame[k] == 2) {
    ivec4 m = kMaps[k];
    return load_texel_at(k, m.w < 0 ? 0 : p.x, m.x < 0 ? 0 : n, m.z < 0 ? 0 : h, p.z);
  }
  if (kSame[k] == 3) return vec4(load_lane(k, mapped(ivec4(n, 0, h, p.x), kMaps[k])));
  if (kSame[k] == 4) return load_texel_at(k, p.x / UP_X, n, h / UP_Y, p.z);
  vec4 v = vec4(0.0);
  for (int lane = 0; lane < 4; ++lane) {
    ivec4 o = ivec4(p.y / out0_H, p.z * 4 + lane, p.y % out0_H, p.x);
    if (o.y >= out0_C) break;  // padding lanes: the store zeroes them
    v[lane] = load_lane(k, mapped(o, kMaps[k]));
  }
  return v;
}

// a / b truncated toward zero. trunc(a / b) alone may land one off when
// the division rounds across a whole number; the remainder a - q * b
// (exact for whole numbers below 2^24) shows it and steps q back.
vec4 quotient(vec4 a, vec4 b) {
  vec4 q = trunc(a / b);
  vec4 r = a - q * b;
  vec4 s = sign(a) * sign(b);
  q += s * vec4(greaterThanEqual(abs(r), abs(b)));
  q -= s * vec4(lessThan(r * sign(a), vec4(0.0)));
  return q;
}

vec4 modulo(vec4 a, vec4 b) {
  vec4 r = a - quotient(a, b) * b;
#if !FMOD
  // Python's %: a nonzero remainder takes the divisor's sign.
  r += b * vec4(notEqual(sign(r), sign(b))) * abs(sign(r));
#endif
  return r;
}

// C's pow, which GLSL's leaves undefined for bases <= 0.
float power(float a, float b) {
  if (b == 0.0) return 1.0;
  if (a == 0.0) return b > 0.0 ? 0.0 : uintBitsToFloat(0x7f800000u);  // +infinity
  float m = pow(abs(a), b);
  if (a > 0.0) return m;
  if (b != trunc(b)) return uintBitsToFloat(0x7fc00000u);  // NaN: no real root
  return mod(b, 2.0) == 1.0 ? -m : m;
}

vec4 power(vec4 a, vec4 b) {
  vec4 p = vec4(power(a.x, b.x), power(a.y, b.y), power(a.z, b.z), power(a.w, b.w));
#if INT_OUT
  // Integer pow truncates the exact power; GLSL's pow is off by a few ulps,
  // so a result that close to a whole number is that number.
  vec4 whole = roundEven(p);
  p = mix(trunc(p), whole, lessThanEqual(abs(p - whole), 1e-5 * max(vec4(1.0), abs(whole))));
#endif
  return p;
}

// NaN propagates, as in numpy's maximum and minimum.
vec4 maximum(vec4 a, vec4 b) { return mix(mix(max(a, b), b, isnan(b)), a, isnan(a)); }
vec4 minimum(vec4 a, vec4 b) { return mix(mix(min(a, b), b, isnan(b)), a, isnan(a)); }

vec4 truth(vec4 v) { return vec4(notEqual(v, vec4(0.0))); }

vec4 combine(vec4 a, vec4 b) {
#if OP == 0
  return a + b;
#elif OP == 1
  return a - b;
#elif OP == 2
  return a * b;
#elif OP == 3 && INT_OUT
  return quotient(a, b);
#elif OP == 3
  return a / b;
#elif OP == 4
  return power(a, b);
#elif OP == 5
  return modulo(a, b);
#elif OP == 6
  return maximum(a, b);
#elif OP == 7
  return minimum(a, b);
#elif OP == 8
  return vec4(equal(a, b));
#elif OP == 9
  return vec4(lessThan(a, b));
#elif OP == 10
  return vec4(greaterThan(a, b));
#elif OP == 11
  return vec4(lessThanEqual(a, b));
#elif OP == 12
  return vec4(greaterThanEqual(a, b));
#elif OP == 13
  return truth(a) * truth(b);
#elif OP == 14
  return max(truth(a), truth(b));
#elif OP == 15
  return abs(truth(a) - truth(b));
#else
  return a;
#endif
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
#if OP == 16
  vec4 result = mix(operand(2, p), operand(1, p), notEqual(operand(0, p), vec4(0.0)));
#else
  vec4 result = operand(0, p);
  for (int k = 1; k < NUM_INPUTS; ++k) result = combine(result, operand(k, p));
#endif
  out0_store(p.x, p.y, p.z, activate(result / DIVISOR));
}
