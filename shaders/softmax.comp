#version 310 es
// glpool-tensors: in0 out0
// Softmax, LogSoftmax (LOG 1) or Hardmax (HARD 1) over a set of logical
// elements; Hardmax marks the first largest element with 1.
// CHANNELS 1: the reduced elements are exactly the channels at one (n, h, w);
//   one invocation per position reads its slices as vec4s and writes them.
// CHANNELS 0: output element f reduces over the contiguous logical dims
//   whose product is REDUCED, INNER being the product of the dims after
//   them: the elements outer * REDUCED * INNER + r * INNER + inner, r < REDUCED.
#ifndef LOG
#define LOG 0
#endif
#ifndef HARD
#define HARD 0
#endif
#ifndef CHANNELS
#define CHANNELS 1
#endif
#ifndef REDUCED
#define REDUCED 5
#endif
#ifndef INNER
#define INNER 1
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

const float kLowest = -3.402823e38;

vec4 finish(vec4 x, float largest, float sum) {
#if LOG
  return x - largest - log(sum);
#else
  return exp(x - largest) / sum;
#endif
}

#if CHANNELS
void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z > 0) return;
  float largest = kLowest;
  int first = 0;  // of the largest (Hardmax)
  for (int s = 0; s < in0_S; ++s) {
    vec4 v = in0_load(p.x, p.y, s);
    // Padding lanes hold zeros, which must not win the max.
    v = mix(vec4(kLowest), v, lessThan(ivec4(s * 4) + ivec4(0, 1, 2, 3), ivec4(in0_C)));
    for (int lane = 0; lane < 4; ++lane) {
      if (v[lane] > largest) first = s * 4 + lane;
      largest = max(largest, v[lane]);
    }
  }
#if HARD
  for (int s = 0; s < out0_S; ++s) {
    vec4 hot = vec4(equal(ivec4(s * 4) + ivec4(0, 1, 2, 3), ivec4(first)));
    out0_store(p.x, p.y, s, activate(hot));
  }
  return;
#endif
  float sum = 0.0;
  for (int s = 0; s < in0_S; ++s) {
    vec4 e = exp(in0_load(p.x, p.y, s) - largest);
    e = mix(vec4(0.0), e, lessThan(ivec4(s * 4) + ivec4(0, 1, 2, 3), ivec4(in0_C)));
    sum += e.x + e.y + e.z + e.w;
  }
  for (int s = 0; s < out0_S; ++s) {
    out0_store(p.x, p.y, s, activate(finish(in0_load(p.x, p.y, s), largest, sum)));
  }
}

#else
float load_flat(int g) {
  int w = g % in0_W;
  g /= in0_W;
  int h = g % in0_H;
  g /= in0_H;
  return in0_load_scalar(g / in0_C, g % in0_C, h, w);
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int h = p.y % out0_H;
  vec4 x = vec4(0.0), largest = vec4(0.0), sum = vec4(1.0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = p.z * 4 + lane;
    if (c >= out0_C) break;  // padding lanes: the store zeroes them
    int f = ((n * out0_C + c) * out0_H + h) * out0_W + p.x;
    int base = f / (REDUCED * INNER) * (REDUCED * INNER) + f % INNER;
    float m = kLowest;
    int first = 0;  // of the largest (Hardmax)
    for (int r = 0; r < REDUCED; ++r) {
      float v = load_flat(base + r * INNER);
      if (v > m) first = r;
      m = max(m, v);
    }
#if HARD
    x[lane] = first == (f / INNER) % REDUCED ? 1.0 : 0.0;
    continue;
#endif
    float total = 0.0;
    for (int r = 0; r < REDUCED; ++r) total += exp(load_flat(base + r * INNER) - m);
    x[lane] = load_flat(f);
    largest[lane] = m;
    sum[lane] = total;
  }
#if HARD
  vec4 v = x;
#elif LOG
  vec4 v = x - largest - log(sum);
#else
  vec4 v = exp(x - largest) / sum;
#endif
  out0_store(p.x, p.y, p.z, activate(v));
}
#endif
