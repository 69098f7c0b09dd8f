// A small network built in code through the graph API, needing no model
// file: the first thing `glpool demo` and the overlay tests run. A chain of
// Add/Mul nodes where each node reads the two previous results, so
// lifetimes overlap and the strategies give visibly different pools; the
// channel count grows and shrinks so tensors differ in size.
#pragma once

#include <map>
#include <string>

#include "gpu_backend/graph/graph.h"

namespace glpool::overlay {

struct DemoNetwork {
  Graph graph;
  std::map<std::string, TensorData> inputs;
};

DemoNetwork BuildDemoNetwork();

}  // namespace glpool::overlay
