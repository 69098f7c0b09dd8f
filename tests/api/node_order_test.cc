// SessionOptions::node_order: the memory order runs the same network in
// another topological order, with a lower pool floor and the same results.
#include <gtest/gtest.h>

#include "api_test_util.h"
#include "app_context.h"

namespace glpool::testing_util {
namespace {

TEST(NodeOrder, MemoryOrderLowersTheFloorAndKeepsTheResults) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteTwoBranchModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const TensorData x = RandomFloats({1, 8, 32, 32}, 7);

  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kArena}) {
    SessionOptions given_options, memory_options;
    given_options.objects = memory_options.objects = objects;
    memory_options.node_order = NodeOrder::kMemory;
    StatusOr<std::unique_ptr<Session>> given = Session::Create(*model, given_options);
    StatusOr<std::unique_ptr<Session>> memory = Session::Create(*model, memory_options);
    ASSERT_TRUE(given.ok()) << given.status().ToString();
    ASSERT_TRUE(memory.ok()) << memory.status().ToString();

    StatusOr<std::map<std::string, TensorData>> given_out = (*given)->Run({{"x", x}});
    StatusOr<std::map<std::string, TensorData>> memory_out = (*memory)->Run({{"x", x}});
    ASSERT_TRUE(given_out.ok()) << given_out.status().ToString();
    ASSERT_TRUE(memory_out.ok()) << memory_out.status().ToString();
    // Same kernels on the same values: only the order differs.
    EXPECT_TRUE(BitIdentical(given_out->at("y"), memory_out->at("y"))) << ObjectKindName(objects);

    // One 32 KiB tensor live at a time instead of two.
    const MemoryReport& g = (*given)->memory();
    const MemoryReport& m = (*memory)->memory();
    EXPECT_LT(m.lower_bound_bytes, g.lower_bound_bytes) << ObjectKindName(objects);
    EXPECT_LT(m.pool_bytes, g.pool_bytes) << ObjectKindName(objects);
    // The first task of the memory order pools what it made before the
    // second branch starts: the given order's second task is Tanh.
    ASSERT_EQ((*memory)->tasks().size(), (*given)->tasks().size());
    EXPECT_EQ((*given)->tasks()[1].node, "tanh");
    EXPECT_NE((*memory)->tasks()[1].node, "tanh");
  }
}

TEST(NodeOrder, UnknownOrderNamesAreRefused) {
  StatusOr<NodeOrder> order = ParseNodeOrder("fastest");
  ASSERT_FALSE(order.ok());
  EXPECT_EQ(order.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(order.status().message().find("given or memory"), std::string::npos);
  EXPECT_EQ(*ParseNodeOrder(NodeOrderName(NodeOrder::kMemory)), NodeOrder::kMemory);
}

}  // namespace
}  // namespace glpool::testing_util
