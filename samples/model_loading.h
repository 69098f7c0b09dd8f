// Loading a model the way every sample command does: --random-weights,
// --no-fuse and --input-shape NAME=1x3x224x224 (repeatable).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "glpool/model.h"
#include "glpool/options.h"

namespace glpool {

struct ModelLoadFlags {
  bool random_weights = false;
  bool no_fuse = false;
  std::vector<std::string> input_shapes;  // NAME=1x3x224x224
};

void AddModelLoadFlags(CLI::App& command, ModelLoadFlags& flags);

// --objects and --precision as the sample commands take them, into
// `options` (errors name the flag).
Status ApplyObjectsAndPrecision(const std::string& objects, const std::string& precision, SessionOptions* options);

StatusOr<Model> LoadModelForRun(const std::string& path, const ModelLoadFlags& flags);

// The --input-shape flags by input name (for SessionOptions::input_shapes).
StatusOr<std::map<std::string, Shape>> InputShapesFromFlags(const ModelLoadFlags& flags);

// Each model input's shape: from the flags, else as the model declares it
// (kBadShape naming the input when a symbolic dim is left open).
// `from_data`: shapes taken from input files (samples/model_input.h), used
// for inputs the flags leave out.
StatusOr<std::map<std::string, Shape>> ResolvedInputShapes(const Model& model, const ModelLoadFlags& flags,
                                                           const std::map<std::string, Shape>& from_data = {});

}  // namespace glpool
