// Pad: constant, reflect and edge, attribute and input forms, cropping.
#include "tests/cpu_reference/cpu_reference_test_util.h"

namespace glpool {
namespace {

using testing_util::ExpectFloats;
using testing_util::Floats;
using testing_util::Ints;
using testing_util::MakeNode;
using testing_util::RunOk;

const TensorData kRow = Floats({3}, {1, 2, 3});
const TensorData kPads = Ints({2}, {2, 2});

TEST(PadTest, Modes) {
  ExpectFloats(RunOk(MakeNode("Pad"), {&kRow, &kPads}), {7}, {0, 0, 1, 2, 3, 0, 0});
  ExpectFloats(RunOk(MakeNode("Pad", 1, {{"mode", std::string("reflect")}}), {&kRow, &kPads}), {7},
               {3, 2, 1, 2, 3, 2, 1});
  ExpectFloats(RunOk(MakeNode("Pad", 1, {{"mode", std::string("edge")}}), {&kRow, &kPads}), {7},
               {1, 1, 1, 2, 3, 3, 3});
}

TEST(PadTest, ConstantValueInput) {
  const TensorData value = Floats({}, {9});
  ExpectFloats(RunOk(MakeNode("Pad"), {&kRow, &kPads, &value}), {7}, {9, 9, 1, 2, 3, 9, 9});
}

TEST(PadTest, NegativePadsCrop) {
  const TensorData pads = Ints({2}, {-1, 1});
  ExpectFloats(RunOk(MakeNode("Pad"), {&kRow, &pads}), {3}, {2, 3, 0});
}

TEST(PadTest, Opset2AttributesOnTwoDims) {
  const TensorData x = Floats({2, 2}, {1, 2, 3, 4});
  ExpectFloats(RunOk(MakeNode("Pad", 1, {{"pads", std::vector<int64_t>{1, 0, 0, 1}}, {"value", 5.0f}}), {&x}, 2),
               {3, 3}, {5, 5, 5, 1, 2, 5, 3, 4, 5});
}

}  // namespace
}  // namespace glpool
