#version 310 es
// glpool-tensors: in0 [in1 in2] out0 [out1 out2]
// LayerNormalization and InstanceNormalization: y = (x - mean) / sqrt(var +
// EPSILON) * scale + bias, the statistics taken over groups of elements.
// One work group owns one group: it sums over the group's texels
// cooperatively (shared memory), then writes every texel of it, so the
// input is read three times whatever the group size.
// A group is the texels (n, slice, h_outer * H_INNER + h_inner, x) for one
// (n, h_outer, slice), where REDUCE_N / REDUCE_C fold all n / all slices
// into the group (their lanes then share one statistic). in1 = scale, in2 =
// bias: per channel ([C], PER_CHANNEL 1) or per element of the normalized
// block of BLOCK logical elements (PER_CHANNEL 0; *_SCALAR: one value).
// out1 / out2 (optional) receive the mean and 1 / stddev per group.
#ifndef REDUCE_N
#define REDUCE_N 0
#endif
#ifndef REDUCE_C
#define REDUCE_C 0
#endif
#ifndef H_INNER
#define H_INNER 7
#endif
#ifndef PER_CHANNEL
#define PER_CHANNEL 1
#endif
#ifndef BLOCK
#define BLOCK 91
#endif
#ifndef SCALE_SCALAR
#define SCALE_SCALAR 0
#endif
#ifndef BIAS_SCALAR
#define BIAS_SCALAR 0
#endif
#ifndef EPSILON
#define EPSILON 1e-5
#endif
#ifndef LOCAL_X
#define LOCAL_X 64
#define LOCAL_Y 1
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

shared vec4 partial[LOCAL_X];

// Sums VALUE over the work group into TOTAL, for every invocation. GLSL ES
// allows barrier() only directly in main(), outside any control flow: hence
// a macro, unrolled for every power of two up to 64 (LOCAL_X is one).
#define GROUP_STEP(k)                                                \
  if (LOCAL_X > k && tid < k) partial[tid] += partial[tid + k];     \
  memoryBarrierShared();                                             \
  barrier();
#define GROUP_SUM(VALUE, TOTAL)                                      \
  partial[tid] = VALUE;                                              \
  memoryBarrierShared();                                             \
  barrier();                                                         \
  GROUP_STEP(32) GROUP_STEP(16) GROUP_STEP(8) GROUP_STEP(4) GROUP_STEP(2) GROUP_STEP(1) \
  TOTAL = partial[0];                                                \
  barrier();

vec4 real_lanes(int s, vec4 v) { return mix(vec4(0.0), v, lessThan(ivec4(s * 4) + ivec4(0, 1, 2, 3), ivec4(in0_C))); }

#if REDUCE_C
// All lanes of all slices share one statistic.
vec4 combine(vec4 sum) { return vec4(sum.x + sum.y + sum.z + sum.w); }
#else
vec4 combine(vec4 sum) { return sum; }
#endif

#if !PER_CHANNEL
// Element r (row-major) of a parameter tensor.
#ifdef in1_N
float scale_at(int r) {
  int w = r % in1_W;
  r /= in1_W;
  int h = r % in1_H;
  r /= in1_H;
  return in1_load_scalar(r / in1_C, r % in1_C, h, w);
}
#endif
#ifdef in2_N
float bias_at(int r) {
  int w = r % in2_W;
  r /= in2_W;
  int h = r % in2_H;
  r /= in2_H;
  return in2_load_scalar(r / in2_C, r % in2_C, h, w);
}
#endif
#endif

void main() {
  int tid = int(gl_LocalInvocationID.x);
  ivec3 group = ivec3(GLPOOL_GROUP_ID);
  int n0 = REDUCE_N == 1 ? 0 : group.x;
  int n_count = REDUCE_N == 1 ? in0_N : 1;
  int s0 = REDUCE_C == 1 ? 0 : group.z;
  int s_count = REDUCE_C == 1 ? in0_S : 1;
  int h0 = group.y * H_INNER;
  int texels = n_count * s_count * H_INNER * in0_W;
  float count = float(n_count * (REDUCE_C == 1 ? in0_C : 1) * H_INNER * in0_W);

  vec4 acc = vec4(0.0);
  for (int i = tid; i < texels; i += LOCAL_X) {
    int t = i / in0_W;
    int s = s0 + (t / H_INNER) % s_count;
    int n = n0 + t / (H_INNER * s_count);
    acc += in0_load(i % in0_W, n * in0_H + h0 + t % H_INNER, s);
  }
  vec4 total;
  GROUP_SUM(acc, total)
  vec4 mean = combine(total) / count;
  acc = vec4(0.0);
  for (int i = tid; i < texels; i += LOCAL_X) {
    int t = i / in0_W;
    int s = s0 + (t / H_INNER) % s_count;
    int n = n0 + t / (H_INNER * s_count);
    vec4 d = real_lanes(s, in0_load(i % in0_W, n * in0_H + h0 + t % H_INNER, s) - mean);
    acc += d * d;
  }
  GROUP_SUM(acc, total)
  vec4 inv_std = inversesqrt(combine(total) / count + EPSILON);

  for (int i = tid; i < texels; i += LOCAL_X) {
    int x = i % in0_W;
    int t = i / in0_W;
    int h = h0 + t % H_INNER;
    int s = s0 + (t / H_INNER) % s_count;
    int n = n0 + t / (H_INNER * s_count);
    vec4 v = (in0_load(x, n * in0_H + h, s) - mean) * inv_std;
#if PER_CHANNEL
    v = v * in1_load(0, 0, s) + in2_load(0, 0, s);
#else
    vec4 scale = vec4(1.0), bias = vec4(0.0);
    for (int lane = 0; lane < 4; ++lane) {
      int c = s * 4 + lane;
      if (c >= in0_C) break;  // padding lanes: the store zeroes them
      int r = (((n * in0_C + c) * in0_H + h) * in0_W + x) % BLOCK;
#ifdef in1_N
      scale[lane] = scale_at(SCALE_SCALAR == 1 ? 0 : r);
#endif
#ifdef in2_N
      bias[lane] = bias_at(BIAS_SCALAR == 1 ? 0 : r);
#endif
    }
    v = v * scale + bias;
#endif
    out0_store(x, n * in0_H + h, s, activate(v));
  }
  if (tid == 0) {
    // Statistics keep the normalized dims as 1s: one texel per group.
    int y = n0 * (in0_H / H_INNER) + group.y;
#ifdef out1_N
    out1_store(0, y, s0, mean);
#endif
#ifdef out2_N
    out2_store(0, y, s0, inv_std);
#endif
  }
}
