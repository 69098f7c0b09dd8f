// Model::Impl: the parsed ONNX file, kept so each input shape is imported
// from it afresh (import resolves every dim, so a new shape needs a new
// import). Internal to the library.
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "glpool/model.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {

struct Model::Impl {
  onnx::ModelProto proto;
  // A .tflite model is imported once, when loaded (its shapes are fixed);
  // null for ONNX models, which are imported afresh per input shape.
  std::shared_ptr<const Graph> tflite_graph;
  std::string model_dir;
  std::string label;
  ModelOptions options;
  std::vector<TensorInfo> inputs, outputs;
};

// Every input's shape for one import: `requested` shapes checked against the
// declared dims (kInvalidArgument for a name the model lacks, kBadShape for a
// wrong rank or fixed dim), declared static shapes for the others, and
// kBadShape naming the input and its symbol where a dim stays open.
StatusOr<std::map<std::string, Shape>> ResolveInputShapes(const Model& model,
                                                          const std::map<std::string, Shape>& requested);

// Imports the model at `shapes` (all inputs) and runs the default passes
// unless the model's options turn them off.
StatusOr<Graph> ImportAtShapes(const Model& model, const std::map<std::string, Shape>& shapes);

}  // namespace glpool
