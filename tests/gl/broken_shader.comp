#version 310 es
// Deliberately broken (test-only): uses an undeclared identifier.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { float values[]; } data;
void main() {
  data.values[0] = undeclared_value;
}
