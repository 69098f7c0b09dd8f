#include "planner/plan_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "planner/plan_report_format.h"

namespace glpool {
namespace {

RecordSet Branchy() {
  return {"branchy",
          6,
          {"x", "a", "b", "y", "z"},
          {{8, 0, 3}, {4, 1, 2}, {4, 2, 3}, {8, 3, 4}, {6, 4, 5}}};
}

TEST(PlanReportTest, PlansEveryStrategyAndVerifies) {
  StatusOr<PlanReport> report = BuildPlanReport(Branchy(), PlanReportOptions{});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->model, "branchy");
  EXPECT_EQ(report->tensors, 5u);
  EXPECT_EQ(report->naive_bytes, 30u);
  EXPECT_EQ(report->shared_objects.lower_bound_bytes, 20u);
  EXPECT_EQ(report->offsets.lower_bound_bytes, 20u);
  EXPECT_EQ(report->shared_objects.strategies.size(), AllObjectStrategies().size());
  EXPECT_EQ(report->offsets.strategies.size(), AllOffsetStrategies().size());
  EXPECT_TRUE(report->AllVerified());
  EXPECT_EQ(report->shared_objects.auto_choice, "greedy_in_order");
  EXPECT_FALSE(report->offsets.auto_choice.empty());
  for (const StrategyRow& row : report->shared_objects.strategies) {
    EXPECT_GE(row.total_bytes, 20u) << row.name;
  }
  EXPECT_EQ(report->offsets.strategies.back().total_bytes, 20u);  // AUTO meets the bound
}

TEST(PlanReportTest, JsonHasExactlyTheDocumentedShape) {
  StatusOr<PlanReport> report = BuildPlanReport(Branchy(), PlanReportOptions{});
  ASSERT_TRUE(report.ok());
  const nlohmann::json j = nlohmann::json::parse(PlanReportJson(*report));
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"model", "naive_bytes", "offsets", "shared_objects",
                                            "tensors"}));
  EXPECT_TRUE(j["model"].is_string());
  EXPECT_TRUE(j["tensors"].is_number_integer());
  EXPECT_EQ(j["naive_bytes"], 30);
  for (const char* section : {"shared_objects", "offsets"}) {
    const nlohmann::json& s = j[section];
    EXPECT_EQ(s.size(), 3u) << section;
    EXPECT_TRUE(s["lower_bound_bytes"].is_number_integer());
    EXPECT_TRUE(s["auto_choice"].is_string());
    ASSERT_TRUE(s["strategies"].is_array());
    for (const nlohmann::json& row : s["strategies"]) {
      // "detail" only where the table shows one (AUTO's row).
      EXPECT_EQ(row.size(), row.contains("detail") ? 6u : 5u);
      if (row.contains("detail")) {
        EXPECT_TRUE(row["detail"].is_string());
      }
      EXPECT_TRUE(row["name"].is_string());
      EXPECT_TRUE(row["total_bytes"].is_number_integer());
      EXPECT_TRUE(row["objects"].is_number_integer());
      EXPECT_TRUE(row["ms"].is_number());
      EXPECT_TRUE(row["verified"].is_boolean());
    }
  }
  EXPECT_EQ(j["shared_objects"]["strategies"][0]["name"], "naive");
  EXPECT_EQ(j["shared_objects"]["strategies"][0]["objects"], 5);
}

TEST(PlanReportTest, SelectsStrategiesByName) {
  PlanReportOptions options;
  ASSERT_TRUE(SelectStrategies("MIN_COST_FLOW", &options).ok());
  EXPECT_EQ(options.object_strategies, std::vector<ObjectStrategy>{ObjectStrategy::kMinCostFlow});
  EXPECT_TRUE(options.offset_strategies.empty());
  ASSERT_TRUE(SelectStrategies("strip_packing", &options).ok());
  EXPECT_TRUE(options.object_strategies.empty());
  EXPECT_EQ(options.offset_strategies, std::vector<OffsetStrategy>{OffsetStrategy::kStripPacking});
  ASSERT_TRUE(SelectStrategies("greedy_by_size", &options).ok());
  EXPECT_EQ(options.object_strategies.size(), 1u);
  EXPECT_EQ(options.offset_strategies.size(), 1u);
  ASSERT_TRUE(SelectStrategies("all", &options).ok());
  EXPECT_EQ(options.object_strategies.size(), AllObjectStrategies().size());
  Status bad = SelectStrategies("best", &options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("strip_packing"), std::string::npos);

  ASSERT_TRUE(SelectStrategies("auto", &options).ok());
  StatusOr<PlanReport> report = BuildPlanReport(Branchy(), options);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->shared_objects.strategies.size(), 1u);
  EXPECT_EQ(report->shared_objects.strategies[0].name, "auto");
}

TEST(PlanReportTest, TableAndMarkdownNameEverything) {
  StatusOr<PlanReport> report = BuildPlanReport(Branchy(), PlanReportOptions{});
  ASSERT_TRUE(report.ok());
  const std::string table = PlanReportTable(*report);
  for (const char* s : {"shared objects", "offsets", "min_cost_flow", "strip_packing", "auto",
                        "verified", "% naive", "x bound"}) {
    EXPECT_NE(table.find(s), std::string::npos) << s;
  }
  const std::string md = PlanReportsMarkdown({*report, *report});
  EXPECT_NE(md.find("| branchy | 5 | 0.00 | 0.00 |"), std::string::npos) << md;
  EXPECT_NE(md.find("Geometric-mean AUTO gap"), std::string::npos);
}

TEST(PlanReportTest, CertificateStatesProofOrGap) {
  PlanSection section;
  section.lower_bound_bytes = 100;
  StrategyRow greedy;
  greedy.name = "greedy_by_size";
  greedy.total_bytes = 110;
  greedy.verified = true;
  StrategyRow broken = greedy;
  broken.name = "naive";
  broken.total_bytes = 90;  // below the bound, but not verified: must be ignored
  broken.verified = false;
  section.strategies = {greedy, broken};
  PlanReport report;
  report.model = "m";
  report.shared_objects = section;
  std::string table = PlanReportTable(report);
  EXPECT_NE(table.find("gap 10.00% to the lower bound"), std::string::npos) << table;
  EXPECT_NE(table.find("optimality not proven"), std::string::npos) << table;

  // A strategy that proved its plan optimal above the bound.
  report.shared_objects.strategies[0].detail = "proven optimal";
  table = PlanReportTable(report);
  EXPECT_NE(table.find("proven optimal (greedy_by_size, 0.00 MB, 10.00% above"), std::string::npos)
      << table;
  EXPECT_EQ(table.find("optimality not proven"), std::string::npos) << table;

  // At the bound, the bound itself is the proof.
  report.shared_objects.strategies[0].detail.clear();
  report.shared_objects.strategies[0].total_bytes = 100;
  table = PlanReportTable(report);
  EXPECT_NE(table.find("at the lower bound"), std::string::npos) << table;
}

TEST(PlanReportTest, MalformedRecordsAreAnError) {
  RecordSet set = Branchy();
  set.records[3].last_task = 1;
  StatusOr<PlanReport> report = BuildPlanReport(set, PlanReportOptions{});
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("record 3 (y)"), std::string::npos);
}

}  // namespace
}  // namespace glpool
