#version 310 es
// y = x * scale + bias over a buffer of floats: the smallest real compute
// kernel, used to check that dispatch, SSBO bindings and readback work.
precision highp float;
precision highp int;
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Input { float values[]; } x;
layout(std430, binding = 1) writeonly buffer Output { float values[]; } y;
uniform ivec4 u_count_scale_bias;  // count, scale, bias (integers), unused

void main() {
  int i = int(gl_GlobalInvocationID.x);
  if (i >= u_count_scale_bias.x) return;
  y.values[i] = x.values[i] * float(u_count_scale_bias.y) + float(u_count_scale_bias.z);
}
