// Compile to tasks and usage records on small graphs, exact.
#include <gtest/gtest.h>

#include "gpu_backend/compile/usage_records.h"
#include "graph_builder.h"

namespace glpool {
namespace {

using testing_util::GraphBuilder;

// x -> Conv -> c -> Relu -> r -> Flatten(alias) -> f -> Gemm -> g -> Add(r2) -> y
Graph SmallGraph() {
  GraphBuilder b;
  b.Input("x", {1, 3, 4, 4})
      .Constant("w", {6, 3, 3, 3}, std::vector<float>(162, 0.1f))
      .Constant("m", {96, 5}, std::vector<float>(480, 0.1f))
      .Op("Conv", {"x", "w"}, "c", {1, 6, 4, 4})
      .Op("Relu", {"c"}, "r", {1, 6, 4, 4})
      .Op("Flatten", {"r"}, "f", {1, 96}, {{kAliasAttr, int64_t{0}}})
      .Op("Gemm", {"f", "m"}, "g", {1, 5})
      .Op("Sigmoid", {"g"}, "s", {1, 5})
      .Op("Add", {"g", "s"}, "y", {1, 5})
      .Output("y");
  return b.graph();
}

TEST(Compile, TasksAndLifetimesWithoutAliases) {
  StatusOr<CompiledGraph> compiled = CompileGraph(SmallGraph());
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  ASSERT_EQ(compiled->tasks.size(), 6u);
  EXPECT_EQ(compiled->tasks[0].inputs, std::vector<std::string>{"x"});  // the weight is constant
  EXPECT_EQ(compiled->storage.at("w").storage, StorageClass::kConstant);
  EXPECT_EQ(compiled->storage.at("x").storage, StorageClass::kExternal);
  EXPECT_EQ(compiled->storage.at("y").storage, StorageClass::kExternal);
  ASSERT_EQ(compiled->pooled.size(), 5u);
  const std::vector<std::string> names = {"c", "r", "f", "g", "s"};
  const std::vector<std::pair<TaskId, TaskId>> lives = {{0, 1}, {1, 2}, {2, 3}, {3, 5}, {4, 5}};
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(compiled->pooled[i].name, names[i]);
    EXPECT_EQ(compiled->pooled[i].first_task, lives[i].first) << names[i];
    EXPECT_EQ(compiled->pooled[i].last_task, lives[i].second) << names[i];
  }
}

TEST(Compile, AliasExtendsItsSourceAndTakesNoTask) {
  Graph graph = SmallGraph();
  graph.nodes[2].attributes[kAliasAttr] = int64_t{1};
  StatusOr<CompiledGraph> compiled = CompileGraph(graph);
  ASSERT_TRUE(compiled.ok());
  ASSERT_EQ(compiled->tasks.size(), 5u);  // Conv, Relu, Gemm, Sigmoid, Add
  EXPECT_EQ(compiled->storage.at("f").root, "r");
  ASSERT_EQ(compiled->pooled.size(), 4u);
  EXPECT_EQ(compiled->pooled[1].name, "r");
  EXPECT_EQ(compiled->pooled[1].first_task, 1);
  EXPECT_EQ(compiled->pooled[1].last_task, 2);  // read by Gemm through f
}

TEST(Compile, AliasOfAGraphOutputIsExternal) {
  GraphBuilder b;
  b.Input("x", {1, 8}).Op("Relu", {"x"}, "r", {1, 8}).Op("Unsqueeze", {"r"}, "y", {1, 8, 1}, {{kAliasAttr, int64_t{1}}})
      .Output("y");
  StatusOr<CompiledGraph> compiled = CompileGraph(b.graph());
  ASSERT_TRUE(compiled.ok());
  EXPECT_EQ(compiled->tasks.size(), 1u);
  EXPECT_TRUE(compiled->pooled.empty());
  EXPECT_EQ(compiled->storage.at("r").storage, StorageClass::kExternal);
}

TEST(Compile, RecordsForEveryObjectKindAndPrecision) {
  StatusOr<CompiledGraph> compiled = CompileGraph(SmallGraph());
  ASSERT_TRUE(compiled.ok());
  // c: [1,6,4,4] -> N=1, C=6 (2 slices), H=4, W=4.
  const std::vector<ByteRecord> fp32 = BufferRecords(*compiled, Precision::kFp32);
  const std::vector<ByteRecord> fp16 = BufferRecords(*compiled, Precision::kFp16);
  EXPECT_EQ(fp32[0].size, 4u * 4 * 2 * 4 * 4);
  EXPECT_EQ(fp16[0].size, 4u * 4 * 2 * 4 * 2);
  // g: [1,5] -> C=5 (2 slices), H=W=1.
  EXPECT_EQ(fp32[3].size, 2u * 4 * 4);
  const std::vector<Extent2DRecord> tex2d = Texture2DRecords(*compiled);
  const std::vector<Extent3DRecord> tex3d = Texture3DRecords(*compiled);
  EXPECT_EQ(tex2d[0].size, (Extent2D{4, 8}));
  EXPECT_EQ(tex3d[0].size, (Extent3D{4, 4, 2}));
  EXPECT_EQ(tex2d[3].size, (Extent2D{1, 2}));
  EXPECT_EQ(tex2d[0].first_task, fp32[0].first_task);
  const RecordSet set = ToRecordSet(*compiled, Precision::kFp16, "small");
  EXPECT_EQ(set.model, "small");
  EXPECT_EQ(set.tasks, 6);
  EXPECT_EQ(set.names.size(), 5u);
  EXPECT_EQ(set.records[0].size, fp16[0].size);
}

TEST(Compile, ReadBeforeWriteIsAnError) {
  GraphBuilder b;
  b.Input("x", {2}).Op("Add", {"x", "later"}, "y", {2}).Op("Relu", {"x"}, "later", {2}).Output("y");
  StatusOr<CompiledGraph> compiled = CompileGraph(b.graph());
  EXPECT_EQ(compiled.status().code(), StatusCode::kInvalidModel);
}

}  // namespace
}  // namespace glpool
