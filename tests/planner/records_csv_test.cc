// MiniMalloc's CSV records: parsing (upper exclusive), writing, errors that
// name the line, and the published challenging instances.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "planner/records_csv.h"

namespace glpool {
namespace {

TEST(RecordsCsvTest, UpperIsExclusive) {
  StatusOr<RecordSet> set = ParseRecordsCsv("id,lower,upper,size\n7,10,12,100\nb,0,1,5\n", "x.csv");
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  ASSERT_EQ(set->records.size(), 2u);
  EXPECT_EQ(set->records[0].first_task, 10);
  EXPECT_EQ(set->records[0].last_task, 11);
  EXPECT_EQ(set->records[0].size, 100u);
  EXPECT_EQ(set->names[0], "7");
  EXPECT_EQ(set->records[1].last_task, 0);
  EXPECT_EQ(set->tasks, 12);
  EXPECT_EQ(set->model, "x");
}

TEST(RecordsCsvTest, WriteThenReadGivesTheSameRecords) {
  RecordSet set;
  set.model = "m";
  set.records = {{64, 0, 3}, {1, 2, 2}, {0, 5, 9}};
  set.names = {"a", "with,comma", ""};
  StatusOr<RecordSet> back = ParseRecordsCsv(RecordsToCsv(set), "m.csv");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->records.size(), set.records.size());
  for (size_t i = 0; i < set.records.size(); ++i) {
    EXPECT_EQ(back->records[i].size, set.records[i].size);
    EXPECT_EQ(back->records[i].first_task, set.records[i].first_task);
    EXPECT_EQ(back->records[i].last_task, set.records[i].last_task);
  }
  EXPECT_EQ(back->names[0], "a");
  EXPECT_EQ(back->names[1], "1");  // not plain: written as its index
}

TEST(RecordsCsvTest, ErrorsNameTheLine) {
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"id,lower,size\n", "f.csv:1:"},
      {"id,lower,upper,size\n0,1,2,3\n1,5,5,3\n", "f.csv:3:"},
      {"id,lower,upper,size\n\n0,1,2\n", "f.csv:3:"},
      {"id,lower,upper,size\n0,-1,2,3\n", "f.csv:2:"},
      {"id,lower,upper,size\n0,1,2,99999999999999999999\n", "f.csv:2:"},
      {"id,lower,upper,size\n0,1,2,281474976710657\n", "f.csv:2:"},
      {"id,lower,upper,size\n0,1,9999999999,3\n", "f.csv:2:"},
      {"id,lower,upper,size\n0,1,2,3,4\n", "f.csv:2:"},
      {"", "no \"id,lower,upper,size\" header"},
  };
  for (const Case& c : cases) {
    StatusOr<RecordSet> set = ParseRecordsCsv(c.text, "f.csv");
    ASSERT_FALSE(set.ok()) << c.text;
    EXPECT_NE(set.status().ToString().find(c.expect), std::string::npos)
        << set.status().ToString();
  }
}

TEST(RecordsCsvTest, FileRoundTripByExtension) {
  RecordSet set;
  set.model = "roundtrip";
  set.tasks = 5;
  set.records = {{8, 0, 1}, {16, 1, 4}};
  set.names = {"x", "y"};
  const std::string dir = std::filesystem::temp_directory_path().string();
  for (const char* ext : {".csv", ".json"}) {
    const std::string path = dir + "/glpool_records_roundtrip" + ext;
    ASSERT_TRUE(WriteRecordsFile(set, path).ok());
    StatusOr<RecordSet> back = ReadRecordsFile(path);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ASSERT_EQ(back->records.size(), 2u);
    EXPECT_EQ(back->records[1].last_task, 4);
    std::remove(path.c_str());
  }
}

TEST(RecordsCsvTest, ReadsThePublishedChallengingInstances) {
  const std::string dir = GLPOOL_ZOO_CHALLENGING_DIR;
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".csv") continue;
    ++files;
    StatusOr<RecordSet> set = ReadRecordsFile(e.path().string());
    ASSERT_TRUE(set.ok()) << set.status().ToString();
    EXPECT_GT(set->records.size(), 50u) << e.path();
    for (const ByteRecord& r : set->records) EXPECT_LE(r.last_task, 1048576) << e.path();
  }
  EXPECT_EQ(files, 11u) << "the challenging CSV instances are missing at " << dir;
}

}  // namespace
}  // namespace glpool
