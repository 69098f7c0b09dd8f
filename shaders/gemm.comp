#version 310 es
// glpool-tensors: in0 in1 in2 out0
// Gemm whose C is computed or fed at run time (ONNX node tests feed it as a
// graph input): out0 = ALPHA * op(A) @ op(B) + BETA * C, with C broadcast
// to [M, N] through C_MAP (broadcast_map.h). A constant or absent C is a
// bias of matmul.comp, which reads A and B in vec4s; this kernel trades that
// speed for generality and reads every operand value by itself.
#ifndef K_SIZE
#define K_SIZE 5
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#ifndef ALPHA
#define ALPHA 1.0
#endif
#ifndef BETA
#define BETA 1.0
#endif
#ifndef C_MAP
#define C_MAP ivec4(0, 1, -1, -1)
#endif
#ifndef LOCAL_X
#define LOCAL_X 1
#define LOCAL_Y 64
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

int pick(ivec4 coords, int axis) {
  return axis < 0 ? 0 : (axis == 0 ? coords.x : axis == 1 ? coords.y : axis == 2 ? coords.z : coords.w);
}

void main() {
  ivec3 p = GLPOOL_OUTPUT_POSITION;
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  int m = p.y;  // Y is [M, N]: rows are M, channels N
  vec4 acc = vec4(0.0);
  for (int lane = 0; lane < 4; ++lane) {
    int n = p.z * 4 + lane;
    if (n >= out0_C) break;  // padding lanes: the store zeroes them
    float sum = 0.0;
    for (int k = 0; k < K_SIZE; ++k) {
#if TRANS_A
      float a = in0_load_scalar(k, m, 0, 0);
#else
      float a = in0_load_scalar(m, k, 0, 0);
#endif
#if TRANS_B
      float b = in1_load_scalar(n, k, 0, 0);
#else
      float b = in1_load_scalar(k, n, 0, 0);
#endif
      sum += a * b;
    }
    ivec4 o = ivec4(m, n, 0, 0);
    ivec4 c = ivec4(pick(o, C_MAP.x), pick(o, C_MAP.y), pick(o, C_MAP.z), pick(o, C_MAP.w));
    acc[lane] = ALPHA * sum + BETA * in2_load_scalar(c.x, c.y, c.z, c.w);
  }
  out0_store(p.x, p.y, p.z, activate(acc));
}
