// `glpool run --pools FILE.json`: the named pools file's reader.
#include <gtest/gtest.h>

#include "samples/pools_json.h"

namespace glpool::samples {
namespace {

TEST(PoolsJson, ReadsEveryFieldWithDefaults) {
  StatusOr<std::vector<NamedPool>> pools = ParseNamedPools(R"({"pools": [
      {"name": "convs", "tensors": ["conv*", "out"], "op_types": ["Conv"], "dtypes": ["float32", "int64"],
       "objects": "textures", "precision": "fp16", "strategy": "greedy_by_size"},
      {"name": "rest"}]})", "pools.json");
  ASSERT_TRUE(pools.ok()) << pools.status().ToString();
  ASSERT_EQ(pools->size(), 2u);
  const NamedPool& convs = (*pools)[0];
  EXPECT_EQ(convs.name, "convs");
  EXPECT_EQ(convs.tensors, (std::vector<std::string>{"conv*", "out"}));
  EXPECT_EQ(convs.op_types, std::vector<std::string>{"Conv"});
  EXPECT_EQ(convs.dtypes, (std::vector<DataType>{DataType::kFloat32, DataType::kInt64}));
  EXPECT_EQ(convs.objects, ObjectKind::kTextures);
  EXPECT_EQ(convs.precision, Precision::kFp16);
  EXPECT_EQ(convs.strategy, "greedy_by_size");
  const NamedPool& rest = (*pools)[1];
  EXPECT_TRUE(rest.tensors.empty() && rest.op_types.empty() && rest.dtypes.empty());
  EXPECT_EQ(rest.objects, ObjectKind::kBuffers);
  EXPECT_EQ(rest.precision, Precision::kFp32);
  EXPECT_EQ(rest.strategy, "auto");
}

TEST(PoolsJson, MistakesAreErrorsNamingTheFileAndPool) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{", "not valid JSON"},
      {R"({"pool": []})", "expected {\"pools\": [...]}"},
      {R"({"pools": [{"tensors": ["a"]}]})", "pool 0: \"name\""},
      {R"({"pools": [{"name": "p", "tensor": ["a"]}]})", "pool 'p': unknown key \"tensor\""},
      {R"({"pools": [{"name": "p", "tensors": "a"}]})", "pool 'p': \"tensors\" must be a list"},
      {R"({"pools": [{"name": "p", "dtypes": ["float"]}]})", "pool 'p': unknown dtype 'float'"},
      {R"({"pools": [{"name": "p", "objects": "images"}]})", "unknown object kind 'images'"},
      {R"({"pools": [{"name": "p", "precision": 16}]})", "pool 'p': \"precision\" must be a string"},
  };
  for (const auto& [text, expected] : cases) {
    StatusOr<std::vector<NamedPool>> pools = ParseNamedPools(text, "my.json");
    ASSERT_FALSE(pools.ok()) << text;
    EXPECT_EQ(pools.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_NE(pools.status().message().find("my.json"), std::string::npos) << pools.status().ToString();
    EXPECT_NE(pools.status().message().find(expected), std::string::npos) << pools.status().ToString();
  }
  EXPECT_EQ(LoadNamedPoolsFile("/nonexistent/pools.json").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace glpool::samples
