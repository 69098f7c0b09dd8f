// Helpers for CPU reference tests: build one node, run it through the
// registry (RunNode), read results back as floats or ints.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gpu_backend/cpu_reference/executor.h"
#include "gpu_backend/graph/graph.h"

namespace glpool {
namespace testing_util {

TensorData Floats(Shape shape, std::vector<float> values);
TensorData Ints(Shape shape, std::vector<int64_t> values);
TensorData Bools(Shape shape, std::vector<int64_t> values);

// A node named after its op with inputs "in0".."inN" and outputs
// "out0".."outM" (an empty TensorData* in RunOp omits that input).
Node MakeNode(const std::string& op_type, size_t outputs = 1,
              std::map<std::string, AttributeValue> attributes = {});

// Runs `node` at `opset` on `inputs` (nullptr = omitted optional input).
StatusOr<std::vector<TensorData>> RunOp(Node node, const std::vector<const TensorData*>& inputs,
                                        int64_t opset = 13);

// Runs and returns output 0, failing the test (and returning empty data)
// when the op fails.
TensorData RunOk(const Node& node, const std::vector<const TensorData*>& inputs,
                 int64_t opset = 13);

// Expects `actual` to be float32 with `shape` and values within `tolerance`.
void ExpectFloats(const TensorData& actual, const Shape& shape, const std::vector<float>& expected,
                  float tolerance = 1e-5f);

// Shortcut for a float op with float inputs.
TensorData RunFloatOp(const std::string& op, const std::vector<TensorData>& inputs,
                      std::map<std::string, AttributeValue> attributes = {}, int64_t opset = 13);

}  // namespace testing_util
}  // namespace glpool
