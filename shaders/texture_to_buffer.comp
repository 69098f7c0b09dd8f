#version 310 es
// Copies a 2D or 2D-array texture into a buffer of vec4 texels, slice by
// slice, row by row. texelFetch needs no image format, so one shader reads
// RGBA16F and RGBA32F alike.
#ifndef IS_ARRAY
#define IS_ARRAY 0
#endif
precision highp float;
precision highp int;
precision highp sampler2D;
precision highp sampler2DArray;
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

#if IS_ARRAY
uniform highp sampler2DArray source;
#else
uniform highp sampler2D source;
#endif
layout(std430, binding = 0) writeonly buffer Destination { vec4 texels[]; } destination;
uniform ivec4 u_extent;  // width, height, layers, unused

void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  if (p.x >= u_extent.x || p.y >= u_extent.y || p.z >= u_extent.z) return;
#if IS_ARRAY
  vec4 value = texelFetch(source, p, 0);
#else
  vec4 value = texelFetch(source, p.xy, 0);
#endif
  destination.texels[(p.z * u_extent.y + p.y) * u_extent.x + p.x] = value;
}
