// CertifySharedObjects against brute force on small record sets: a
// certificate that claims optimality must be right, a floor must never be
// above the true optimum, and a smaller plan the search finds must be valid.
#include "planner/objects_certificate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

#include "planner/lower_bounds.h"
#include "planner/objects_planner.h"
#include "planner/plan_report.h"
#include "planner/records_json.h"
#include "planner/verifier.h"

namespace glpool {
namespace {

bool Overlap(const ByteRecord& a, const ByteRecord& b) {
  return a.first_task <= b.last_task && b.first_task <= a.last_task;
}

// The least total over every partition of the records into objects whose
// tensors never overlap in time (each object as large as its largest).
uint64_t BruteForceOptimum(const std::vector<ByteRecord>& records) {
  std::vector<std::vector<size_t>> objects;
  uint64_t best = UINT64_MAX;
  std::function<void(size_t)> place = [&](size_t i) {
    if (i == records.size()) {
      uint64_t total = 0;
      for (const auto& object : objects) {
        uint64_t size = 0;
        for (size_t t : object) size = std::max(size, records[t].size);
        total += size;
      }
      best = std::min(best, total);
      return;
    }
    // By index: deeper calls add objects, which may move the vector.
    for (size_t j = 0; j < objects.size(); ++j) {
      bool fits = true;
      for (size_t t : objects[j]) fits &= !Overlap(records[t], records[i]);
      if (!fits) continue;
      objects[j].push_back(i);
      place(i + 1);
      objects[j].pop_back();
    }
    objects.push_back({i});
    place(i + 1);
    objects.pop_back();
  };
  place(0);
  return best;
}

std::vector<ByteRecord> SmallRandomSet(std::mt19937_64& rng) {
  std::vector<ByteRecord> records(2 + rng() % 6);
  for (ByteRecord& r : records) {
    const TaskId a = static_cast<TaskId>(rng() % 8), b = static_cast<TaskId>(rng() % 8);
    r.first_task = std::min(a, b);
    r.last_task = std::max(a, b);
    r.size = 1 + rng() % 100;
  }
  return records;
}

// The certificate of the naive plan (one object per tensor), usually far
// above the optimum.
StatusOr<ObjectsCertificate> CertifyNaivePlan(const std::vector<ByteRecord>& records, double seconds) {
  uint64_t naive_total = 0;
  for (const ByteRecord& r : records) naive_total += r.size;
  return CertifySharedObjects(records, naive_total, seconds);
}

TEST(ObjectsCertificate, ProvesTheBruteForceOptimumFromAnyValidPlan) {
  std::mt19937_64 rng(2026);
  for (int k = 0; k < 300; ++k) {
    const std::vector<ByteRecord> records = SmallRandomSet(rng);
    const uint64_t optimum = BruteForceOptimum(records);
    StatusOr<ObjectsCertificate> certificate = CertifyNaivePlan(records, 5.0);
    ASSERT_TRUE(certificate.ok()) << certificate.status().ToString();
    ASSERT_TRUE(certificate->optimal()) << "set " << k;
    ASSERT_EQ(certificate->total, optimum) << "set " << k;
    ASSERT_EQ(certificate->gap(), 0.0);
    if (certificate->improved) {
      // The smaller plan is a real one: rebuild it and verify it.
      ObjectsAssignment<uint64_t> plan;
      plan.object_ids = certificate->ids;
      const size_t objects = *std::max_element(plan.object_ids.begin(), plan.object_ids.end()) + 1;
      plan.object_sizes.assign(objects, 0);
      for (size_t t = 0; t < records.size(); ++t) {
        plan.object_sizes[plan.object_ids[t]] = std::max(plan.object_sizes[plan.object_ids[t]], records[t].size);
      }
      ASSERT_TRUE(VerifySharedObjects(records, plan).ok()) << "set " << k;
      ASSERT_EQ(TotalBytes(plan), optimum) << "set " << k;
    }
  }
}

TEST(ObjectsCertificate, AnExhaustedBudgetStillStatesAFloorNotAboveTheOptimum) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 100; ++k) {
    const std::vector<ByteRecord> records = SmallRandomSet(rng);
    const uint64_t optimum = BruteForceOptimum(records);
    StatusOr<ObjectsCertificate> certificate = CertifyNaivePlan(records, 1e-9);
    ASSERT_TRUE(certificate.ok());
    EXPECT_GE(certificate->floor, std::min(certificate->total, SharedObjectsLowerBound(records)));
    EXPECT_LE(certificate->floor, optimum) << "set " << k;
    EXPECT_GE(certificate->total, optimum);
    if (!certificate->optimal()) {
      EXPECT_GT(certificate->gap(), 0.0);
    }
  }
}

TEST(ObjectsCertificate, BadBudgetsAndRecordsAreErrors) {
  const std::vector<ByteRecord> records = {{16, 0, 1}, {8, 2, 3}};
  EXPECT_FALSE(CertifySharedObjects(records, 24, 0.0).ok());
  EXPECT_FALSE(CertifySharedObjects(records, 24, -1.0).ok());
  const std::vector<ByteRecord> backwards = {{16, 5, 1}};
  StatusOr<ObjectsCertificate> bad = CertifySharedObjects(backwards, 16, 1.0);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().ToString().find("record"), std::string::npos);
}

// mobilenet_v3_small's AUTO plan is not proven by AUTO's own node-bounded
// searches; the certificate proves it (0.1 s of CPU here) and the AUTO row
// says so, only when asked.
TEST(ObjectsCertificate, PlanReportAddsTheVerdictToTheAutoRowWhenAsked) {
  StatusOr<RecordSet> set = ReadRecordsJson(std::string(GLPOOL_ZOO_RECORDS_DIR) + "/mobilenet_v3_small.json");
  ASSERT_TRUE(set.ok()) << "the zoo records are needed beside the checkout: " << set.status().ToString();
  PlanReportOptions options;
  ASSERT_TRUE(SelectStrategies("auto", &options).ok());
  StatusOr<PlanReport> plain = BuildPlanReport(*set, options);
  ASSERT_TRUE(plain.ok());
  const std::string plain_detail = plain->shared_objects.strategies.back().detail;
  EXPECT_EQ(plain_detail.find("proven optimal"), std::string::npos) << plain_detail;
  options.certify_seconds = 30.0;
  StatusOr<PlanReport> certified = BuildPlanReport(*set, options);
  ASSERT_TRUE(certified.ok());
  const std::string detail = certified->shared_objects.strategies.back().detail;
  EXPECT_NE(detail.find("proven optimal by the certificate search"), std::string::npos) << detail;
}

}  // namespace
}  // namespace glpool
