// SessionOptions::pools: tensors sent to named pools by name or glob, op
// type and dtype; each pool planned on its own with its own object kind,
// precision and strategy; no object shared across pools; every plan valid.
#include <gtest/gtest.h>

#include "conv_chain_fixture.h"

namespace glpool::testing_util {
namespace {

class NamedPools : public ConvChainTest {
 protected:
  void SetUp() override {
    ConvChainTest::SetUp();
    if (HasFatalFailure()) return;
    StatusOr<std::unique_ptr<Session>> reference = Session::Create(*model_, {});
    ASSERT_TRUE(reference.ok()) << reference.status().ToString();
    StatusOr<std::map<std::string, TensorData>> want = (*reference)->Run({{"x", x_}});
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    want_ = want->at("y");
  }
  // Runs `options` and checks the result against the default session's.
  std::unique_ptr<Session> RunChecked(const SessionOptions& options, float tolerance) {
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    if (!session.ok()) return nullptr;
    StatusOr<std::map<std::string, TensorData>> got = (*session)->Run({{"x", x_}});
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    if (got.ok()) {
      EXPECT_LE(MaxAbsDifference(got->at("y"), want_), tolerance);
    }
    return std::move(session).value();
  }
  const PlacedTensor& Tensor(const Session& session, const std::string& name) {
    for (const PlacedTensor& t : session.tensors()) {
      if (t.name == name) return t;
    }
    ADD_FAILURE() << "no pooled tensor " << name;
    return session.tensors().front();
  }

  const TensorData x_ = RandomFloats({1, 4, 16, 16}, 7);
  TensorData want_;
};

// The plan, checked from the report alone: every object hosts tensors of
// one pool, and tensors sharing an object (or arena bytes) are never alive
// at the same task.
void ExpectValidAndSeparate(const Session& session) {
  const std::vector<PlacedTensor>& tensors = session.tensors();
  for (size_t k = 0; k < session.objects().size(); ++k) {
    const PoolObject& object = session.objects()[k];
    for (size_t i : object.tensors) {
      EXPECT_EQ(tensors[i].pool, object.pool) << tensors[i].name << " in object " << k;
      EXPECT_EQ(tensors[i].object, k);
      for (size_t j : object.tensors) {
        if (i >= j) continue;
        const bool alive_together =
            tensors[i].first_task <= tensors[j].last_task && tensors[j].first_task <= tensors[i].last_task;
        const bool bytes_overlap = !object.arena || (tensors[i].offset < tensors[j].offset + tensors[j].bytes &&
                                                     tensors[j].offset < tensors[i].offset + tensors[i].bytes);
        EXPECT_FALSE(alive_together && bytes_overlap) << tensors[i].name << " and " << tensors[j].name;
      }
    }
  }
}

TEST_F(NamedPools, TensorsGoToTheFirstMatchingPoolAndPoolsShareNoObject) {
  SessionOptions options;
  NamedPool by_name{"outer", {"c1", "c3"}, {}, {}, ObjectKind::kBuffers, Precision::kFp32, "naive"};
  NamedPool by_op{"convs", {}, {"Conv"}, {}, ObjectKind::kTextures, Precision::kFp32, "auto"};
  options.pools = {by_name, by_op};
  std::unique_ptr<Session> session = RunChecked(options, 1e-5f);
  ASSERT_NE(session, nullptr);
  const MemoryReport& memory = session->memory();
  ASSERT_EQ(memory.pools.size(), 2u);
  EXPECT_EQ(memory.pools[0].name, "outer");
  EXPECT_EQ(memory.pools[0].storage, "buffers");
  EXPECT_EQ(memory.pools[0].chosen, "naive");
  EXPECT_EQ(memory.pools[0].tensors, 2u);
  EXPECT_EQ(memory.pools[1].name, "convs");
  EXPECT_EQ(memory.pools[1].storage, "rgba32f textures");
  EXPECT_EQ(memory.pools[1].tensors, 1u);
  // c1 and c3 are never alive together, but naive gives each its object.
  EXPECT_EQ(memory.pools[0].objects, 2u);
  const PlacedTensor& c2 = Tensor(*session, "c2");
  EXPECT_EQ(session->objects()[c2.object].storage, StorageKind::kTexture2D);
  EXPECT_NE(Tensor(*session, "c1").object, c2.object);
  uint64_t total = 0;
  for (const PoolSummary& pool : memory.pools) total += pool.pool_bytes;
  EXPECT_EQ(total, memory.pool_bytes);
  ExpectValidAndSeparate(*session);
}

TEST_F(NamedPools, EachPoolHasItsOwnPrecisionAndObjectKind) {
  SessionOptions options;
  options.pools = {{"half", {"c2"}, {}, {}, ObjectKind::kBuffers, Precision::kFp16, "auto"},
                   {"ranges", {}, {}, {DataType::kFloat32}, ObjectKind::kArena, Precision::kFp32, "auto"}};
  std::unique_ptr<Session> session = RunChecked(options, 2e-2f);
  ASSERT_NE(session, nullptr);
  EXPECT_TRUE(Tensor(*session, "c2").half);
  EXPECT_FALSE(Tensor(*session, "c1").half);
  ASSERT_EQ(session->memory().pools.size(), 2u);
  EXPECT_EQ(session->memory().pools[1].storage, "arena");
  EXPECT_TRUE(session->objects()[Tensor(*session, "c1").object].arena);
  EXPECT_EQ(Tensor(*session, "c1").object, Tensor(*session, "c3").object);  // one arena
  ExpectValidAndSeparate(*session);
}

TEST_F(NamedPools, GlobsMatchAndUnmatchedTensorsStayInTheDefaultPool) {
  SessionOptions options;
  options.objects = ObjectKind::kTextures;
  // "c?x" matches nothing here; "c1" only itself; "*3" any name ending in 3.
  options.pools = {{"odd", {"c?x", "c1", "*3"}, {}, {}, ObjectKind::kBuffers, Precision::kFp32, "greedy_by_size"}};
  std::unique_ptr<Session> session = RunChecked(options, 1e-5f);
  ASSERT_NE(session, nullptr);
  const MemoryReport& memory = session->memory();
  ASSERT_EQ(memory.pools.size(), 2u);
  EXPECT_EQ(memory.pools[0].name, "default");
  EXPECT_EQ(memory.pools[0].tensors, 1u);  // c2
  EXPECT_EQ(memory.pools[1].name, "odd");
  EXPECT_EQ(memory.pools[1].tensors, 2u);  // c1, c3
  EXPECT_EQ(session->objects()[Tensor(*session, "c2").object].storage, StorageKind::kTexture2D);
  ExpectValidAndSeparate(*session);
}

TEST_F(NamedPools, BadPoolsAreErrorsNamingThePool) {
  const auto pool = [](std::string name, std::string tensor, std::string strategy = "auto") {
    NamedPool p;
    p.name = std::move(name);
    p.tensors = {std::move(tensor)};
    p.strategy = std::move(strategy);
    return p;
  };
  NamedPool textures_with_offsets_strategy = pool("p", "c1", "strip_packing");
  textures_with_offsets_strategy.objects = ObjectKind::kTextures;
  const std::vector<std::pair<std::vector<NamedPool>, std::string>> cases = {
      {{pool("", "c1")}, "no name"},
      {{pool("default", "c1")}, "'default'"},
      {{pool("p", "c1"), pool("p", "c2")}, "'p' is named twice"},
      {{textures_with_offsets_strategy}, "pool 'p': unknown strategy"},
  };
  for (const auto& [pools, expected] : cases) {
    SessionOptions options;
    options.pools = pools;
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
    ASSERT_FALSE(session.ok()) << expected;
    EXPECT_EQ(session.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(session.status().message().find(expected), std::string::npos) << session.status().ToString();
  }
  SessionOptions dynamic;
  dynamic.memory_mode = MemoryMode::kDynamic;
  NamedPool ranges = pool("ranges", "c1");
  ranges.objects = ObjectKind::kArena;
  dynamic.pools = {ranges};
  EXPECT_EQ(Session::Create(*model_, dynamic).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace glpool::testing_util
