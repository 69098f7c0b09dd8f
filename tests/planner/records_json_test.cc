#include "planner/records_json.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace glpool {
namespace {

void ExpectError(const std::string& text, const std::string& needle) {
  auto set = ParseRecordsJson(text, "bad.json");
  ASSERT_FALSE(set.ok()) << text;
  EXPECT_EQ(set.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(set.status().message().find("bad.json"), std::string::npos) << set.status().message();
  EXPECT_NE(set.status().message().find(needle), std::string::npos) << set.status().message();
}

TEST(RecordsJsonTest, ParsesZooFormat) {
  auto set = ParseRecordsJson(
      R"({"model": "m", "tasks": 4, "records": [
          {"name": "x", "size": 12, "first": 0, "last": 1},
          {"name": "y", "size": 5000000000, "first": 1, "last": 3}]})",
      "m.json");
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_EQ(set->model, "m");
  EXPECT_EQ(set->tasks, 4);
  ASSERT_EQ(set->records.size(), 2u);
  EXPECT_EQ(set->names[1], "y");
  EXPECT_EQ(set->records[1].size, 5000000000ull);
  EXPECT_EQ(set->records[1].first_task, 1);
  EXPECT_EQ(set->records[1].last_task, 3);
}

TEST(RecordsJsonTest, OptionalFieldsDefault) {
  auto set = ParseRecordsJson(R"({"records": [{"size": 1, "first": 2, "last": 6}]})",
                              "dir/net.records.json");
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_EQ(set->model, "net.records");
  EXPECT_EQ(set->tasks, 7);
  EXPECT_EQ(set->names[0], "");
}

TEST(RecordsJsonTest, RoundTrips) {
  RecordSet set{"q\"uote", 9, {"a", "b\\c"}, {{1, 0, 8}, {1ull << 47, 3, 3}}};
  auto back = ParseRecordsJson(RecordsToJson(set), "x");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->model, set.model);
  EXPECT_EQ(back->tasks, set.tasks);
  EXPECT_EQ(back->names, set.names);
  ASSERT_EQ(back->records.size(), 2u);
  EXPECT_EQ(back->records[1].size, 1ull << 47);
  EXPECT_EQ(back->records[0].last_task, 8);
}

TEST(RecordsJsonTest, RejectsBadRecordsNamingThem) {
  ExpectError("{\"records\": [", "not valid JSON");
  ExpectError("", "not valid JSON");
  ExpectError("[1, 2]", "not a JSON object");
  ExpectError("{}", "no \"records\"");
  ExpectError(R"({"records": {}})", "not an array");
  ExpectError(R"({"records": [3]})", "record 0 is not a JSON object");
  ExpectError(R"({"records": [{"name": "t", "size": -4, "first": 0, "last": 1}]})",
              "record 0 (t) has a negative \"size\"");
  ExpectError(R"({"records": [{"name": "ok", "size": 1, "first": 0, "last": 0},
                              {"name": "t", "size": 4, "first": 3, "last": 1}]})",
              "record 1 (t) has last 1 < first 3");
  ExpectError(R"({"records": [{"name": "t", "first": 0, "last": 1}]})",
              "record 0 (t) has no \"size\"");
  ExpectError(R"({"records": [{"name": "t", "size": 1, "last": 1}]})", "no \"first\"");
  ExpectError(R"({"records": [{"size": "1", "first": 0, "last": 1}]})",
              "record 0 has a non-integer \"size\"");
  ExpectError(R"({"records": [{"size": 1.5, "first": 0, "last": 1}]})", "non-integer");
  ExpectError(R"({"records": [{"size": 1, "first": -1, "last": 1}]})", "negative \"first\"");
  ExpectError(R"({"records": [{"name": 7, "size": 1, "first": 0, "last": 1}]})",
              "non-string \"name\"");
  ExpectError(R"({"model": 3, "records": []})", "\"model\" is not a string");
  ExpectError(R"({"tasks": 2, "records": [{"name": "t", "size": 1, "first": 0, "last": 2}]})",
              "record 0 (t) has last 2 but the set has only 2 tasks");
  ExpectError(R"({"records": [{"size": 1e30, "first": 0, "last": 1}]})", "non-integer");
}

TEST(RecordsJsonTest, UnreadableFileIsNotFound) {
  auto set = ReadRecordsJson("/nonexistent/dir/x.json");
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), StatusCode::kNotFound);
  EXPECT_NE(set.status().message().find("/nonexistent/dir/x.json"), std::string::npos);
}

TEST(RecordsJsonTest, WritesAndReadsFile) {
  const std::string path = ::testing::TempDir() + "/glpool_records_json_test.json";
  RecordSet set{"w", 2, {"r"}, {{3, 0, 1}}};
  ASSERT_TRUE(WriteRecordsJson(set, path).ok());
  auto back = ReadRecordsJson(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->records[0].size, 3u);
  std::remove(path.c_str());
  std::ofstream(path) << "{\"records\": [{\"size\": 1, \"first\": 4, \"last\": 2}]}";
  back = ReadRecordsJson(path);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find(path), std::string::npos);
  EXPECT_NE(back.status().message().find("record 0"), std::string::npos);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace glpool
