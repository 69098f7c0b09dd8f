#version 310 es
// glpool-tensors: in0 out0
// Pad of tensors up to rank 4, whose logical dims each own one PHWC4 axis.
// PAD_BEGIN holds the leading pad per axis (n, c, h, w); negative crops.
// Output coordinate o reads input o - begin, mapped back inside per MODE
// (0 constant: VALUE outside, 1 reflect, 2 edge, 3 wrap). Without channel padding
// (CHANNEL_PADDED 0) a texel's lanes move together: one vec4 load.
#ifndef MODE
#define MODE 0
#endif
#ifndef PAD_BEGIN
#define PAD_BEGIN ivec4(0, 0, 1, 1)
#endif
#ifndef VALUE
#define VALUE 0.0
#endif
#ifndef CHANNEL_PADDED
#define CHANNEL_PADDED 0
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

// The input index for output index o along an axis of `size`, -1 for a
// constant-padded position.
int source(int o, int begin, int size) {
  int i = o - begin;
  if (i >= 0 && i < size) return i;
#if MODE == 0
  return -1;
#elif MODE == 1
  // numpy "reflect": mirror about the edge elements without repeating them.
  if (size == 1) return 0;
  int period = 2 * (size - 1);
  i = abs(i) % period;  // reflect(-i) == reflect(i); GLSL leaves % of negatives undefined
  return i < size ? i : period - i;
#elif MODE == 2
  return clamp(i, 0, size - 1);
#else
  // numpy "wrap": the axis repeats periodically.
  // Lifted to a non-negative value first: GLSL leaves % of negatives undefined.
  if (i < 0) i += size * ((size - 1 - i) / size);
  return i % size;
#endif
}

void main() {
  ivec3 p = ivec3(GLPOOL_GLOBAL_ID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  ivec4 begin = PAD_BEGIN;
  int n = source(p.y / out0_H, begin.x, in0_N);
  int h = source(p.y % out0_H, begin.z, in0_H);
  int w = source(p.x, begin.w, in0_W);
  bool outside = n < 0 || h < 0 || w < 0;
  vec4 v = vec4(VALUE);
#if CHANNEL_PADDED
  for (int lane = 0; lane < 4; ++lane) {
    int c = source(p.z * 4 + lane, begin.y, in0_C);
    if (!outside && c >= 0) v[lane] = in0_load_scalar(n, c, h, w);
  }
#else
  if (!outside) v = in0_load(w, n * in0_H + h, p.z);
#endif
  out0_store(p.x, p.y, p.z, activate(v));
}
