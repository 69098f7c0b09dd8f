// Helpers the passes share for looking at and editing a Graph.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpu_backend/graph/graph.h"

namespace glpool {

// How many node inputs and graph outputs read each tensor.
std::map<std::string, int> CountReaders(const Graph& graph);

// Index of the node producing each tensor.
std::map<std::string, size_t> ProducerIndex(const Graph& graph);

bool IsGraphOutput(const Graph& graph, const std::string& name);
bool IsGraphInput(const Graph& graph, const std::string& name);

// Makes every node input and graph output that reads `from` read `to`.
void RenameReaders(Graph& graph, const std::string& from, const std::string& to);

// Removes the nodes whose indices are in `drop`, keeping the others' order.
void EraseNodes(Graph& graph, const std::set<size_t>& drop);

// A tensor name not yet in the graph, derived from `base`.
std::string UniqueTensorName(const Graph& graph, const std::string& base);

// The constant fp32 tensor `name`, or null (empty name, not constant, other dtype).
const Tensor* ConstantFp32(const Graph& graph, const std::string& name);

// The value of a constant fp32 tensor with one element (a scalar, [1],
// [1, 1]...); false if `name` is not one.
bool ScalarFp32(const Graph& graph, const std::string& name, float* value);

// Adds a constant fp32 tensor.
void AddConstantTensor(Graph& graph, const std::string& name, TensorData data);

}  // namespace glpool
