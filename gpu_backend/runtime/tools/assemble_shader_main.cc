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
  auto interface = glpool::ParseKernelInterface(argv[1], text.str());
  if (!interface.ok()) {
    std::cerr << interface.status().ToString() << "\n";
    return 1;
  }
  // Odd sizes on purpose: nothing may assume multiples of four.
  const glpool::Phwc4Layout layout{1, 5, 7, 13};
  std::vector<glpool::TensorBinding> tensors;
  uint32_t binding = 0;
  for (const std::string& role : interface->inputs) tensors.push_back({role, false, storage, fp16, layout, binding++});
  for (const std::string& role : interface->outputs) tensors.push_back({role, true, storage, fp16, layout, binding++});
  std::vector<glpool::WeightBinding> weights;
  uint32_t weight_binding = storage == glpool::StorageKind::kBuffer ? binding : 0;
  for (const std::string& name : interface->weights) weights.push_back({name, weight_binding++});
  auto assembled = glpool::AssembleKernel(argv[1], text.str(), {}, tensors, weights);
  if (!assembled.ok()) {
    std::cerr << assembled.status().ToString() << "\n";
    return 1;
  }
  std::ofstream out(argv[3]);
  out << *assembled;
  return out ? 0 : 1;
}
