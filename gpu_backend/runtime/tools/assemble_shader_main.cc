// Build-time helper: assembles a kernel (shaders/<op>.comp with a
// glpool-tensors line) with a representative preamble so glslang can
// validate exactly the text the runtime will compile.
//   glpool_assemble_shader KERNEL.comp VARIANT OUT.comp
// VARIANT: buffer-fp32, buffer-fp16, texture2d-fp32, texture2darray-fp16.
#include <fstream>
#include <iostream>
#include <sstream>

#include "gpu_backend/runtime/shader_assembly.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: glpool_assemble_shader KERNEL.comp VARIANT OUT.comp\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << argv[1] << ": cannot read\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  const std::string variant = argv[2];
  glpool::StorageKind storage = glpool::StorageKind::kBuffer;
  if (variant.rfind("texture2darray", 0) == 0) {
    storage = glpool::StorageKind::kTexture2DArray;
  } else if (variant.rfind("texture2d", 0) == 0) {
    storage = glpool::StorageKind::kTexture2D;
  } else if (variant.rfind("buffer", 0) != 0) {
    std::cerr << "unknown variant " << variant << "\n";
    return 2;
  }
  const bool fp16 = variant.find("fp16") != std::string::npos;
  auto assembled = glpool::AssembleRepresentative(argv[1], text.str(), storage, fp16);
  if (!assembled.ok()) {
    std::cerr << assembled.status().ToString() << "\n";
    return 1;
  }
  std::ofstream out(argv[3]);
  out << *assembled;
  return out ? 0 : 1;
}
