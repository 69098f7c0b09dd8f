// fp16 storage rounds every stored value to the nearest half (ties to
// even) in every object kind: a texture's store conversion is the driver's
// choice (llvmpipe truncates toward zero, a bias that compounds over a deep
// network), so kernels round before an RGBA16F store. Mul by a constant
// makes values halves cannot hold exactly; the product of two halves is
// exact in fp32, so the expected output is exactly half(half(x) * half(k)).
#include <gtest/gtest.h>

#include "gpu_backend/graph/float16.h"
#include "gpu_backend/runtime/executor.h"
#include "tests/kernels/kernel_test_util.h"

namespace glpool::testing {
namespace {

float Half(float v) { return HalfToFloat(FloatToHalf(v)); }

TEST(Fp16RoundingTest, EveryObjectKindStoresTheNearestHalf) {
  KernelCase c;
  c.node.name = "scale";
  c.node.op_type = "Mul";
  c.node.inputs = {"x", "k"};
  c.node.outputs = {"y"};
  const Shape shape = {1, 5, 13, 7};
  c.inputs["x"] = RandomTensor(shape, 91, -40.0f, 40.0f);
  c.constants["k"] = TensorData::FromFloats({}, {0.3f});
  c.outputs["y"] = shape;
  const std::vector<float> x = c.inputs["x"].ToFloats();
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures, ObjectKind::kArena}) {
    ExecutorOptions options;
    options.objects = objects;
    options.precision = Precision::kFp16;
    // Also makes the kernel tests' shared GL context current.
    ASSERT_TRUE(CreateOnGpu(c, options).ok());
    StatusOr<std::unique_ptr<Executor>> executor = Executor::Create(GraphOf(c), options);
    ASSERT_TRUE(executor.ok()) << executor.status().ToString();
    StatusOr<std::map<std::string, TensorData>> out = (*executor)->Run({{"x", c.inputs["x"]}});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    const std::vector<float> y = out->at("y").ToFloats();
    int wrong = 0;
    for (size_t i = 0; i < x.size(); ++i) wrong += y[i] != Half(Half(x[i]) * Half(0.3f));
    EXPECT_EQ(wrong, 0) << ObjectKindName(objects) << ": " << wrong << " of " << x.size()
                        << " values are not the nearest half";
  }
}

}  // namespace
}  // namespace glpool::testing
