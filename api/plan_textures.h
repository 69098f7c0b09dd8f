// `glpool plan MODEL.onnx --objects textures`: the model's tensors as 2D
// texture extents (PHWC4: W x N*H*slices texels), planned with every texture
// strategy the executor accepts, each plan verified, against naive and the
// extent lower bound.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "glpool/status.h"
#include "planner/usage_record.h"

namespace glpool {

struct TexturePlanRow {
  std::string strategy, chosen;
  size_t objects = 0;
  uint64_t texels = 0;
};

struct TexturePlanTable {
  std::string label;  // "unfused" or "fused"
  uint64_t naive_texels = 0;
  uint64_t lower_bound_texels = 0;
  std::vector<TexturePlanRow> rows;
};

StatusOr<TexturePlanTable> PlanTextures(const std::string& label, const std::vector<Extent2DRecord>& records);

// The table, bytes at `bytes_per_texel` (16 for RGBA32F, 8 for RGBA16F).
void PrintTexturePlanTable(const TexturePlanTable& table, uint64_t bytes_per_texel, std::ostream& out);

}  // namespace glpool
