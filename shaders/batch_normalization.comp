#version 310 es
// glpool-tensors: in0 out0
// glpool-weights: scale_shift
// Inference BatchNormalization folded into one multiply-add per channel:
// scale_shift_data[s] scales slice s, scale_shift_data[in0_S + s] shifts it.
#ifndef LOCAL_X
#define LOCAL_X 8
#define LOCAL_Y 8
#define LOCAL_Z 1
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y, local_size_z = LOCAL_Z) in;

void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  if (p.x >= out0_W || p.y >= out0_ROWS || p.z >= out0_S) return;
  vec4 v = in0_load(p.x, p.y, p.z) * scale_shift_data[p.z] + scale_shift_data[in0_S + p.z];
  out0_store(p.x, p.y, p.z, activate(v));
}
