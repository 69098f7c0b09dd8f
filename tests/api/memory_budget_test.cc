// SessionOptions::memory_budget_bytes: a plan that fits is kept; a strategy
// over the budget gives way to auto; a budget no plan can meet fails with
// kOutOfMemory before any GL object is made.
#include <gtest/gtest.h>

#include "conv_chain_fixture.h"

namespace glpool::testing_util {
namespace {

class MemoryBudget : public ConvChainTest {
 protected:
  // The pool bytes of `strategy` without a budget.
  uint64_t PoolBytes(const std::string& strategy) {
    SessionOptions options;
    options.strategy = strategy;
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    return session.ok() ? (*session)->memory().pool_bytes : 0;
  }
};

TEST_F(MemoryBudget, AStrategyOverTheBudgetGivesWayToAuto) {
  const uint64_t naive = PoolBytes("naive");
  const uint64_t best = PoolBytes("auto");
  ASSERT_LT(best, naive);  // two objects instead of three

  SessionOptions options;
  options.strategy = "naive";
  options.memory_budget_bytes = best;
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ((*session)->memory().pool_bytes, best);
  EXPECT_NE((*session)->memory().chosen.find("memory budget"), std::string::npos) << (*session)->memory().chosen;
  // And it runs as the unbudgeted session does.
  const TensorData x = RandomFloats({1, 4, 16, 16}, 3);
  SessionOptions plain;
  StatusOr<std::unique_ptr<Session>> reference = Session::Create(*model_, plain);
  ASSERT_TRUE(reference.ok());
  StatusOr<std::map<std::string, TensorData>> got = (*session)->Run({{"x", x}});
  StatusOr<std::map<std::string, TensorData>> want = (*reference)->Run({{"x", x}});
  ASSERT_TRUE(got.ok() && want.ok());
  EXPECT_TRUE(BitIdentical(got->at("y"), want->at("y")));
}

TEST_F(MemoryBudget, AFittingPlanIsKeptAsItIs) {
  const uint64_t naive = PoolBytes("naive");
  SessionOptions options;
  options.strategy = "naive";
  options.memory_budget_bytes = naive;
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ((*session)->memory().pool_bytes, naive);
  EXPECT_EQ((*session)->memory().chosen.find("memory budget"), std::string::npos);
}

TEST_F(MemoryBudget, ABudgetBelowEveryPlanFailsBeforeAnyGlObject) {
  const uint64_t best = PoolBytes("auto");
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures, ObjectKind::kArena}) {
    SessionOptions options;
    options.objects = objects;
    options.memory_budget_bytes = best / 4;
    const RuntimeCounters before = GetRuntimeCounters();
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
    ASSERT_FALSE(session.ok()) << ObjectKindName(objects);
    EXPECT_EQ(session.status().code(), StatusCode::kOutOfMemory);
    const std::string& message = session.status().message();
    EXPECT_NE(message.find("memory budget of " + std::to_string(best / 4) + " bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("lower bound"), std::string::npos) << message;
    EXPECT_EQ(GetRuntimeCounters().gl_objects_created, before.gl_objects_created) << message;
  }
}

}  // namespace
}  // namespace glpool::testing_util
