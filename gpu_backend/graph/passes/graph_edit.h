// Helpers the passes share for looking at and editing a Graph.
#pragma once

#include <functional>
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

// Whether `node` carries a fused activation or a fused output scale or
// shift (graph.h): passes that rewrite what it computes leave it alone.
bool HasFusedEpilogue(const Node& node);

// Whether `node` is a default-domain `op_type` of two different inputs
// and one output (the binary ops the fusion patterns match).
bool IsBinaryOfTwo(const Node& node, const std::string& op_type);
// The index of the one node that reads `name` (its only reader, counted in
// `readers` as CountReaders does, and no graph output), or -1.
long OnlyReader(const Graph& graph, const std::map<std::string, int>& readers, const std::string& name);

// The other input of a two-input node when one of its inputs is `x`, else "".
std::string OtherInput(const Node& node, const std::string& x);

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

// The shape of the passes that fold a node into the node before it: for each
// node whose input `input` is read by it alone, is no graph output, and is
// the only output of `producer` (and whose outputs past the first nobody
// reads), fold(node, input, producer) may rewrite the producer (adding
// constants as it needs) to compute the node's first output. When it returns
// true the producer takes that output over and the node is removed. Returns
// how many nodes were folded.
using FoldIntoProducer = std::function<bool(const Node& node, size_t input, Node& producer)>;
int FoldIntoProducers(Graph& graph, const FoldIntoProducer& fold);

// Whether Conv `conv`'s weights (input 1) are constant and its bias (input
// 2) is absent, "", or constant: the packed-weight conv kernel's case.
bool HasConstantConvWeights(const Graph& graph, const Node& conv);

// The output channel each weight of Conv or ConvTranspose `conv` feeds, in
// the weights' flat order: Conv weights are [M, C / group, k...], where
// weight i feeds channel i / (C / group * taps); ConvTranspose weights are
// [C, M / group, k...], where input channel c's block feeds group
// c / (C / group)'s channels. Empty when `weights` does not fit the group.
std::vector<int64_t> WeightOutputChannels(const Node& conv, const Shape& weights);
// How many output channels those weights make (0 when they do not fit).
int64_t ConvOutputChannelCount(const Node& conv, const Shape& weights);

// Points Conv `conv` at new constant weights `weights` (its weights' shape;
// empty: keep the current ones) and bias `bias`, added under names made
// from the current ones and `suffix`.
void ReplaceConvConstants(Graph& graph, Node& conv, const std::vector<float>& weights,
                          const std::vector<float>& bias, const std::string& suffix);

}  // namespace glpool
