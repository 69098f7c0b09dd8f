// Which Concats become in place (compile/in_place_concat.h), and what
// compile then makes of their inputs: windows of the output, no task.
#include <gtest/gtest.h>

#include "gpu_backend/compile/compile.h"
#include "gpu_backend/compile/in_place_concat.h"
#include "graph_builder.h"

namespace glpool {
namespace {

using testing_util::GraphBuilder;

bool AnyNode(const Node&) { return true; }

// x -> Conv a (8 channels), Conv b (5) -> Concat c (13) -> Conv y.
GraphBuilder FireModule(int64_t a_channels = 8, int64_t axis = 1) {
  GraphBuilder b;
  const int64_t total = a_channels + 5;
  b.Input("x", {1, 3, 6, 7})
      .Constant("wa", {a_channels, 3, 1, 1}, std::vector<float>(static_cast<size_t>(a_channels * 3), 0.5f))
      .Constant("wb", {5, 3, 3, 3}, std::vector<float>(135, 0.25f))
      .Constant("wy", {2, total, 1, 1}, std::vector<float>(static_cast<size_t>(2 * total), 1.0f))
      .Op("Conv", {"x", "wa"}, "a", {1, a_channels, 6, 7})
      .Op("Conv", {"x", "wb"}, "b", {1, 5, 6, 7}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}})
      .Op("Concat", {"a", "b"}, "c", {1, total, 6, 7}, {{"axis", axis}})
      .Op("Conv", {"c", "wy"}, "y", {1, 2, 6, 7})
      .Output("y");
  return b;
}

TEST(InPlaceConcat, InputsBecomeWindowsOfTheOutputAndTheConcatNoTask) {
  Graph graph = FireModule().graph();
  ASSERT_EQ(MarkInPlaceConcats(graph, AnyNode), 1);
  StatusOr<CompiledGraph> compiled = CompileGraph(graph);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  ASSERT_EQ(compiled->tasks.size(), 3u);  // Conv a, Conv b, Conv y
  for (const Task& task : compiled->tasks) EXPECT_NE(task.op_type, "Concat");
  EXPECT_EQ(compiled->storage.at("a").root, "c");
  EXPECT_EQ(compiled->storage.at("a").slice_offset, 0);
  EXPECT_EQ(compiled->storage.at("b").root, "c");
  EXPECT_EQ(compiled->storage.at("b").slice_offset, 2);  // after a's 8 channels
  // One pooled record: c, from a's producer (task 0) to its reader (task 2).
  ASSERT_EQ(compiled->pooled.size(), 1u);
  EXPECT_EQ(compiled->pooled[0].name, "c");
  EXPECT_EQ(compiled->pooled[0].first_task, 0u);
  EXPECT_EQ(compiled->pooled[0].last_task, 2u);
}

TEST(InPlaceConcat, WhatStaysACopy) {
  {
    SCOPED_TRACE("a's 6 channels end inside a slice");
    Graph graph = FireModule(6).graph();
    EXPECT_EQ(MarkInPlaceConcats(graph, AnyNode), 0);
  }
  {
    SCOPED_TRACE("along H");
    Graph graph = FireModule(8, 2).graph();
    graph.tensors["c"].shape = {1, 8, 12, 7};
    EXPECT_EQ(MarkInPlaceConcats(graph, AnyNode), 0);
  }
  {
    SCOPED_TRACE("b's producer runs on the CPU");
    Graph graph = FireModule().graph();
    EXPECT_EQ(MarkInPlaceConcats(graph, [](const Node& node) { return node.name != "Conv_b"; }), 0);
  }
  {
    SCOPED_TRACE("the Concat's output is a graph output");
    Graph graph = FireModule().graph();
    graph.outputs.push_back("c");
    EXPECT_EQ(MarkInPlaceConcats(graph, AnyNode), 0);
  }
  {
    SCOPED_TRACE("a task reads one window and writes another");
    GraphBuilder b;
    b.Input("x", {1, 4, 5, 5})
        .Constant("w", {4, 4, 1, 1}, std::vector<float>(16, 0.5f))
        .Op("Conv", {"x", "w"}, "a", {1, 4, 5, 5})
        .Op("Conv", {"a", "w"}, "b", {1, 4, 5, 5})
        .Op("Concat", {"a", "b"}, "c", {1, 8, 5, 5}, {{"axis", int64_t{1}}})
        .Op("Relu", {"c"}, "y", {1, 8, 5, 5})
        .Output("y");
    EXPECT_EQ(MarkInPlaceConcats(b.graph(), AnyNode), 0);
  }
}

// A long skip: `a` is made first and joined with `d` only after two wide
// tensors lived. In place, the joined tensor would live through their peak
// instead of `a` alone, so the peak would grow: it stays a copy. Made just
// before the Concat instead, `a` joins in place.
TEST(InPlaceConcat, ALongSkipThatWouldRaiseThePeakStaysACopy) {
  auto graph_with_a_at = [](bool early) {
    GraphBuilder b;
    b.Input("x", {1, 4, 8, 8})
        .Constant("narrow", {4, 4, 1, 1}, std::vector<float>(16, 0.5f))
        .Constant("widen", {64, 4, 1, 1}, std::vector<float>(256, 0.5f))
        .Constant("wide", {64, 64, 1, 1}, std::vector<float>(4096, 0.5f))
        .Constant("back", {4, 64, 1, 1}, std::vector<float>(256, 0.5f));
    if (early) b.Op("Conv", {"x", "narrow"}, "a", {1, 4, 8, 8});
    b.Op("Conv", {"x", "widen"}, "u1", {1, 64, 8, 8})
        .Op("Conv", {"u1", "wide"}, "u2", {1, 64, 8, 8})
        .Op("Conv", {"u2", "back"}, "d", {1, 4, 8, 8});
    if (!early) b.Op("Conv", {"x", "narrow"}, "a", {1, 4, 8, 8});
    b.Op("Concat", {"a", "d"}, "c", {1, 8, 8, 8}, {{"axis", int64_t{1}}})
        .Op("Relu", {"c"}, "y", {1, 8, 8, 8})
        .Output("y");
    return b.graph();
  };
  Graph early = graph_with_a_at(true);
  EXPECT_EQ(MarkInPlaceConcats(early, AnyNode), 0);
  Graph late = graph_with_a_at(false);
  EXPECT_EQ(MarkInPlaceConcats(late, AnyNode), 1);
}

}  // namespace
}  // namespace glpool
