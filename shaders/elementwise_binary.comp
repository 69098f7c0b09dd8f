#version 310 es
// glpool-tensors: in0 in1 out0
// out0 = activate(in0 OP in1) with ONNX (numpy) broadcasting.
// Each input either has the output's exact layout (IN*_SAME: one vec4 load)
// or is read lane by lane through a map from output axes (n, c, h, w) to its
// own axes: IN*_MAP = ivec4 of output-axis indices, -1 where it broadcasts.
#ifndef OP
#define OP 0  // 0 add, 1 sub, 2 mul, 3 div, 4 pow
#endif
#ifndef IN0_SAME
#define IN0_SAME 1
#endif
#ifndef IN1_SAME
#define IN1_SAME 1
#endif
#ifndef IN0_MAP
#define IN0_MAP ivec4(0, 1, 2, 3)
#endif
#ifndef IN1_MAP
#define IN1_MAP ivec4(0, 1, 2, 3)
#endif
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

int pick(ivec4 coords, int axis) {
  return axis < 0 ? 0 : (axis == 0 ? coords.x : axis == 1 ? coords.y : axis == 2 ? coords.z : coords.w);
}

ivec4 mapped(ivec4 out_coords, ivec4 map) {
  return ivec4(pick(out_coords, map.x), pick(out_coords, map.y), pick(out_coords, map.z), pick(out_coords, map.w));
}

vec4 apply(vec4 a, vec4 b) {
#if OP == 0
  return a + b;
#elif OP == 1
  return a - b;
#elif OP == 2
  return a * b;
#elif OP == 3
  return a / b;
#else
  return pow(a, b);
#endif
}

void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int n = p.y / out0_H;
  int h = p.y % out0_H;
  vec4 a;
  vec4 b;
#if IN0_SAME
  a = in0_load(p.x, p.y, p.z);
#endif
#if IN1_SAME
  b = in1_load(p.x, p.y, p.z);
#endif
#if !IN0_SAME || !IN1_SAME
  for (int lane = 0; lane < 4; ++lane) {
    ivec4 o = ivec4(n, p.z * 4 + lane, h, p.x);
    if (o.y >= out0_C) break;  // padding lanes: the store zeroes them
#if !IN0_SAME
    ivec4 i0 = mapped(o, IN0_MAP);
    a[lane] = in0_load_scalar(i0.x, i0.y, i0.z, i0.w);
#endif
#if !IN1_SAME
    ivec4 i1 = mapped(o, IN1_MAP);
    b[lane] = in1_load_scalar(i1.x, i1.y, i1.z, i1.w);
#endif
  }
#endif
  out0_store(p.x, p.y, p.z, activate(apply(a, b)));
}
