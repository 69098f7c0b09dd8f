// A small network built in code, needing no model file: the first thing
// `glpool demo` and the overlay tests run. A chain of Add/Mul nodes where
// each node reads the two previous results, so lifetimes overlap and the
// strategies give visibly different pools; the channel count grows and
// shrinks so tensors differ in size. It is written as an ONNX model in
// memory (onnx protobufs, as an app generating a model would) and loaded
// through glpool::Model::FromMemory.
#pragma once

#include <map>
#include <string>

#include "glpool/model.h"

namespace glpool::overlay {

struct DemoNetwork {
  Model model;
  size_t nodes = 0;  // as built, for the demo's header line
  std::map<std::string, TensorData> inputs;
};

StatusOr<DemoNetwork> BuildDemoNetwork();

}  // namespace glpool::overlay
