#version 310 es
// Copies a buffer of vec4 texels, laid out slice by slice, row by row, into
// a 2D or 2D-array image. Host uploads and the texture round-trip tests use it.
#ifndef IMAGE_FORMAT
#define IMAGE_FORMAT rgba32f
#endif
#ifndef IS_ARRAY
#define IS_ARRAY 0
#endif
precision highp float;
precision highp int;
precision highp image2D;
precision highp image2DArray;
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(std430, binding = 0) readonly buffer Source { vec4 texels[]; } source;
#if IS_ARRAY
layout(IMAGE_FORMAT, binding = 0) writeonly uniform image2DArray destination;
#else
layout(IMAGE_FORMAT, binding = 0) writeonly uniform image2D destination;
#endif
uniform ivec4 u_extent;  // width, height, layers, unused

void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  if (p.x >= u_extent.x || p.y >= u_extent.y || p.z >= u_extent.z) return;
  vec4 value = source.texels[(p.z * u_extent.y + p.y) * u_extent.x + p.x];
#if IS_ARRAY
  imageStore(destination, p, value);
#else
  imageStore(destination, p.xy, value);
#endif
}
