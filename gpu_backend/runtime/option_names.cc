#include "glpool/options.h"

namespace glpool {

const char* ObjectKindName(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kTextures: return "textures";
    case ObjectKind::kBuffers: return "buffers";
    case ObjectKind::kArena: return "arena";
  }
  return "unknown";
}

StatusOr<ObjectKind> ParseObjectKind(const std::string& name) {
  if (name == "textures") return ObjectKind::kTextures;
  if (name == "buffers") return ObjectKind::kBuffers;
  if (name == "arena") return ObjectKind::kArena;
  return InvalidArgumentError("unknown object kind '" + name + "' (expected textures, buffers or arena)");
}

StatusOr<Precision> ParsePrecision(const std::string& name) {
  if (name == "fp32") return Precision::kFp32;
  if (name == "fp16") return Precision::kFp16;
  return InvalidArgumentError("unknown precision '" + name + "' (expected fp32 or fp16)");
}

const char* CpuSpinName(CpuSpin spin) {
  switch (spin) {
    case CpuSpin::kAuto: return "auto";
    case CpuSpin::kOn: return "on";
    case CpuSpin::kOff: return "off";
  }
  return "unknown";
}

StatusOr<CpuSpin> ParseCpuSpin(const std::string& name) {
  for (CpuSpin spin : {CpuSpin::kAuto, CpuSpin::kOn, CpuSpin::kOff}) {
    if (name == CpuSpinName(spin)) return spin;
  }
  return InvalidArgumentError("unknown CPU spin '" + name + "' (expected auto, on or off)");
}

const char* NodeOrderName(NodeOrder order) { return order == NodeOrder::kMemory ? "memory" : "given"; }

StatusOr<NodeOrder> ParseNodeOrder(const std::string& name) {
  if (name == "given") return NodeOrder::kGiven;
  if (name == "memory") return NodeOrder::kMemory;
  return InvalidArgumentError("unknown node order '" + name + "' (expected given or memory)");
}

const char* MemoryModeName(MemoryMode mode) {
  switch (mode) {
    case MemoryMode::kPooled: return "pooled";
    case MemoryMode::kNaive: return "naive";
    case MemoryMode::kReuse: return "reuse";
    case MemoryMode::kDynamic: return "dynamic";
  }
  return "unknown";
}

StatusOr<MemoryMode> ParseMemoryMode(const std::string& name) {
  for (MemoryMode mode : {MemoryMode::kPooled, MemoryMode::kNaive, MemoryMode::kReuse, MemoryMode::kDynamic}) {
    if (name == MemoryModeName(mode)) return mode;
  }
  return InvalidArgumentError("unknown memory mode '" + name + "' (expected pooled, naive, reuse or dynamic)");
}

}  // namespace glpool
