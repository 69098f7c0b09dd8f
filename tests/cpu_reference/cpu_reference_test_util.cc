#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace testing_util {

TensorData Floats(Shape shape, std::vector<float> values) {
  return TensorData::FromFloats(std::move(shape), values);
}

TensorData Ints(Shape shape, std::vector<int64_t> values) {
  return TensorData::FromInt64s(std::move(shape), values);
}

TensorData Bools(Shape shape, std::vector<int64_t> values) {
  TensorData data;
  data.dtype = DataType::kBool;
  data.shape = std::move(shape);
  for (int64_t v : values) data.bytes.push_back(v != 0);
  return data;
}

Node MakeNode(const std::string& op_type, size_t outputs,
              std::map<std::string, AttributeValue> attributes) {
  Node node;
  node.name = op_type + "_test";
  node.op_type = op_type;
  for (size_t i = 0; i < outputs; ++i) node.outputs.push_back("out" + std::to_string(i));
  node.attributes = std::move(attributes);
  return node;
}

StatusOr<std::vector<TensorData>> RunOp(Node node, const std::vector<const TensorData*>& inputs,
                                        int64_t opset) {
  node.inputs.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    node.inputs.push_back(inputs[i] ? "in" + std::to_string(i) : "");
  }
  return cpu_reference::RunNode(node, opset, inputs);
}

TensorData RunOk(const Node& node, const std::vector<const TensorData*>& inputs, int64_t opset) {
  StatusOr<std::vector<TensorData>> result = RunOp(node, inputs, opset);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok() || result->empty()) return {};
  return (*result)[0];
}

void ExpectFloats(const TensorData& actual, const Shape& shape, const std::vector<float>& expected,
                  float tolerance) {
  ASSERT_EQ(actual.dtype, DataType::kFloat32);
  ASSERT_EQ(ShapeToString(actual.shape), ShapeToString(shape));
  const std::vector<float> values = actual.ToFloats();
  ASSERT_EQ(values.size(), expected.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_NEAR(values[i], expected[i], tolerance) << "element " << i;
  }
}

TensorData RunFloatOp(const std::string& op, const std::vector<TensorData>& inputs,
                      std::map<std::string, AttributeValue> attributes, int64_t opset) {
  std::vector<const TensorData*> pointers;
  for (const TensorData& t : inputs) pointers.push_back(&t);
  return RunOk(MakeNode(op, 1, std::move(attributes)), pointers, opset);
}

}  // namespace testing_util
}  // namespace glpool
