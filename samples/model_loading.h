// Loading a model the way every sample command does: import, then the
// default graph passes unless asked not to.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

struct ModelLoadFlags {
  bool random_weights = false;
  bool no_fuse = false;
  std::vector<std::string> input_shapes;  // NAME=1x3x224x224
};

void AddModelLoadFlags(CLI::App& command, ModelLoadFlags& flags);

StatusOr<Graph> LoadModelForRun(const std::string& path, const ModelLoadFlags& flags);

}  // namespace glpool
