#version 310 es
// glpool-tensors: [in0] [out0]
// Moves one graph input or output between an app-owned GL object and the
// tensor's own PHWC4 object (api/gpu_binding.h), entirely on the GPU. With
// out0 bound it reads the app's object into the tensor; with in0 bound it
// writes the tensor into the app's object. One invocation per PHWC4 texel.
// CALLER_KIND: 0 float buffer NCHW (row-major logical order), 1 float buffer
// NHWC, 2 2D image of format CALLER_FORMAT (channel c in component c, batch
// 1), 3 buffer of PHWC4 fp32 texels. The app's object sits at binding 2.
#ifndef CALLER_KIND
#define CALLER_KIND 0
#endif
#ifndef CALLER_FORMAT
#define CALLER_FORMAT rgba32f
#endif
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

#ifdef out0_N
#define T_C out0_C
#define T_H out0_H
#define T_W out0_W
#define T_S out0_S
#define T_ROWS out0_ROWS
#define CALLER_ACCESS readonly
#else
#define T_C in0_C
#define T_H in0_H
#define T_W in0_W
#define T_S in0_S
#define T_ROWS in0_ROWS
#define CALLER_ACCESS writeonly
#endif

#if CALLER_KIND == 2
layout(CALLER_FORMAT, binding = 2) CALLER_ACCESS uniform highp image2D caller_image;
#elif CALLER_KIND == 3
layout(std430, binding = 2) CALLER_ACCESS restrict buffer caller_block { vec4 texels[]; } caller;
#else
layout(std430, binding = 2) CALLER_ACCESS restrict buffer caller_block { float values[]; } caller;
#endif

int caller_index(int n, int c, int h, int w) {
#if CALLER_KIND == 1
  return ((n * T_H + h) * T_W + w) * T_C + c;
#else
  return ((n * T_C + c) * T_H + h) * T_W + w;
#endif
}

void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);  // x = w, y = n * H + h, z = slice
  if (p.x >= T_W || p.y >= T_ROWS || p.z >= T_S) return;
  int n = p.y / T_H;
  int h = p.y % T_H;
  int texel = (p.z * T_ROWS + p.y) * T_W + p.x;
#ifdef out0_N
  vec4 v = vec4(0.0);
#if CALLER_KIND == 2
  v = imageLoad(caller_image, ivec2(p.x, h));
#elif CALLER_KIND == 3
  v = caller.texels[texel];
#else
  float lanes[4] = float[4](0.0, 0.0, 0.0, 0.0);
  for (int lane = 0; lane < 4; ++lane) {
    int c = p.z * 4 + lane;
    if (c < T_C) lanes[lane] = caller.values[caller_index(n, c, h, p.x)];
  }
  v = vec4(lanes[0], lanes[1], lanes[2], lanes[3]);
#endif
  out0_store(p.x, p.y, p.z, v);  // zeroes the padding lanes
#else
  vec4 v = in0_load(p.x, p.y, p.z);
#if CALLER_KIND == 2
  imageStore(caller_image, ivec2(p.x, h), v);
#elif CALLER_KIND == 3
  caller.texels[texel] = v;
#else
  float lanes[4] = float[4](v.x, v.y, v.z, v.w);
  for (int lane = 0; lane < 4; ++lane) {
    int c = p.z * 4 + lane;
    if (c < T_C) caller.values[caller_index(n, c, h, p.x)] = lanes[lane];
  }
#endif
#endif
}
