#version 310 es
// glpool-tensors: in0 in1 in2 out0
// GroupNormalization: y = (x - mean) / sqrt(var + EPSILON) * scale + bias,
// with mean and var per batch item and group of GROUP_CHANNELS channels,
// over every spatial position. One work group owns one chunk of one batch
// item: CHUNK_SLICES slices, lcm(GROUP_CHANNELS, 4) channels, so that no
// group and no texel is shared with another work group. A chunk holds at
// most four groups, whose sums travel as the four lanes of a vec4.
// in1 = scale, in2 = bias: one value per group (PER_GROUP 1, opset 18) or
// per channel (PER_GROUP 0, opset 21).
#ifndef GROUP_CHANNELS
#define GROUP_CHANNELS 3
#endif
#ifndef CHUNK_SLICES
#define CHUNK_SLICES 3
#endif
#ifndef PER_GROUP
#define PER_GROUP 0
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

// The chunk-local group (0..3) of each lane of slice s, -1 for the lanes
// past the last channel.
ivec4 lane_groups(int s, int c0) {
  ivec4 c = ivec4(s * 4) + ivec4(0, 1, 2, 3);
  ivec4 g = (c - ivec4(c0)) / GROUP_CHANNELS;
  for (int l = 0; l < 4; ++l) {
    if (c[l] >= in0_C) g[l] = -1;
  }
  return g;
}

// v's lanes added into the lanes of their groups.
vec4 by_group(vec4 v, ivec4 g) {
  vec4 r = vec4(0.0);
  for (int l = 0; l < 4; ++l) {
    if (g[l] >= 0) r[g[l]] += v[l];
  }
  return r;
}

// Each lane's group statistic.
vec4 per_lane(vec4 stat, ivec4 g) {
  vec4 r = vec4(0.0);
  for (int l = 0; l < 4; ++l) {
    if (g[l] >= 0) r[l] = stat[g[l]];
  }
  return r;
}

void main() {
  int tid = int(gl_LocalInvocationID.x);
  int n = int(GLPOOL_GROUP_ID.x);
  int s0 = int(GLPOOL_GROUP_ID.y) * CHUNK_SLICES;
  int c0 = s0 * 4;  // a multiple of GROUP_CHANNELS
  int slices = min(CHUNK_SLICES, in0_S - s0);
  int plane = in0_H * in0_W;
  int texels = slices * plane;
  float count = float(GROUP_CHANNELS * plane);

  vec4 acc = vec4(0.0);
  for (int i = tid; i < texels; i += LOCAL_X) {
    int s = s0 + i / plane;
    int r = i % plane;
    acc += by_group(in0_load(r % in0_W, n * in0_H + r / in0_W, s), lane_groups(s, c0));
  }
  vec4 total;
  GROUP_SUM(acc, total)
  vec4 mean = total / count;
  acc = vec4(0.0);
  for (int i = tid; i < texels; i += LOCAL_X) {
    int s = s0 + i / plane;
    int r = i % plane;
    ivec4 g = lane_groups(s, c0);
    vec4 d = in0_load(r % in0_W, n * in0_H + r / in0_W, s) - per_lane(mean, g);
    acc += by_group(d * d, g);
  }
  GROUP_SUM(acc, total)
  vec4 inv_std = inversesqrt(total / count + EPSILON);

  for (int i = tid; i < texels; i += LOCAL_X) {
    int s = s0 + i / plane;
    int r = i % plane;
    int x = r % in0_W;
    int y = n * in0_H + r / in0_W;
    ivec4 g = lane_groups(s, c0);
    vec4 v = (in0_load(x, y, s) - per_lane(mean, g)) * per_lane(inv_std, g);
#if PER_GROUP
    vec4 scale = vec4(0.0), bias = vec4(0.0);
    for (int l = 0; l < 4; ++l) {
      if (g[l] < 0) continue;
      int group = c0 / GROUP_CHANNELS + g[l];
      scale[l] = in1_load_scalar(0, group, 0, 0);
      bias[l] = in2_load_scalar(0, group, 0, 0);
    }
    v = v * scale + bias;
#else
    v = v * in1_load(0, 0, s) + in2_load(0, 0, s);
#endif
    out0_store(x, y, s, activate(v));
  }
}
