#include <gtest/gtest.h>

#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

KernelCase Softmax(const std::string& op, const Shape& shape, int64_t axis, int64_t opset) {
  KernelCase c;
  c.node.name = op + "_node";
  c.node.op_type = op;
  c.node.inputs = {"x"};
  c.node.outputs = {"y"};
  c.node.attributes["axis"] = axis;
  c.inputs["x"] = RandomTensor(shape, 21, -4.0f, 4.0f);
  c.outputs["y"] = shape;
  c.opset = opset;
  return c;
}

TEST(SoftmaxTest, ChannelAxis) {
  for (int64_t channels : {1, 3, 5, 13}) {
    SCOPED_TRACE("C=" + std::to_string(channels));
    ExpectMatchesReference(Softmax("Softmax", {1, channels, 7, 13}, 1, 13),
                           channels == 5 ? AllVariants() : SweepVariants());
  }
  ExpectMatchesReference(Softmax("Softmax", {2, 1000}, -1, 13), SweepVariants());  // classifier head
  // Flattening at the channel axis of a 2-D input.
  ExpectMatchesReference(Softmax("LogSoftmax", {2, 13}, 1, 11), SweepVariants());
  ExpectMatchesReference(Softmax("Softmax", {13}, 0, 13), SweepVariants());
}

TEST(SoftmaxTest, OtherAxes) {
  ExpectMatchesReference(Softmax("Softmax", {1, 5, 7, 13}, -1, 13));
  ExpectMatchesReference(Softmax("LogSoftmax", {2, 3, 127, 1}, 2, 13), SweepVariants());
  ExpectMatchesReference(Softmax("Softmax", {2, 5, 3, 4}, 0, 13), SweepVariants());
  // Rows longer than a work group (a recognizer's class axis), and a middle
  // axis of a rank-5 tensor (rows strided by the dims after it).
  ExpectMatchesReference(Softmax("Softmax", {1, 5, 1001}, -1, 13), SweepVariants());
  ExpectMatchesReference(Softmax("LogSoftmax", {1, 3, 2, 9, 5}, 3, 13), SweepVariants());
}

// Many short rows (attention scores, one row per query and head) run one
// row per invocation; the channel-axis cases above do so with joined lanes.
TEST(SoftmaxTest, ManyShortRows) {
  ExpectMatchesReference(Softmax("Softmax", {2, 6, 33, 17}, -1, 13), SweepVariants());
  ExpectMatchesReference(Softmax("LogSoftmax", {1, 8, 40, 40}, 3, 13), SweepVariants());
  // fp32 only: rounded to half, random inputs tie, and Hardmax breaks a tie
  // the fp32 reference does not see.
  ExecutorOptions buffers, textures;
  buffers.objects = ObjectKind::kBuffers;
  textures.objects = ObjectKind::kTextures;
  ExpectMatchesReference(Softmax("Hardmax", {2, 6, 33, 17}, -1, 13), {buffers, textures});
}

TEST(SoftmaxTest, Hardmax) {
  ExpectMatchesReference(Softmax("Hardmax", {1, 13, 7, 5}, 1, 13), SweepVariants());
  ExpectMatchesReference(Softmax("Hardmax", {2, 3, 7, 5}, 2, 11), SweepVariants());
  ExpectMatchesReference(Softmax("Hardmax", {1, 4, 300}, -1, 13), SweepVariants());
}

TEST(SoftmaxTest, FlattenedBeforeOpset13) {
  // Opset < 13 normalises over all dims from axis on.
  ExpectMatchesReference(Softmax("Softmax", {1, 5, 7, 13}, 1, 11), SweepVariants());
  ExpectMatchesReference(Softmax("LogSoftmax", {2, 3, 7, 5}, 2, 11), SweepVariants());
  ExpectMatchesReference(Softmax("Softmax", {2, 6, 3, 5}, 0, 11), SweepVariants());
}

}  // namespace
}  // namespace glpool::testing
