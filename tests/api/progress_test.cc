// SessionOptions::progress and Session::startup(): what a long run has done,
// and where the time before the first run went.
#include <gtest/gtest.h>

#include "api_test_util.h"
#include "app_context.h"

namespace glpool::testing_util {
namespace {

TEST(Progress, ALongRunReportsTheTasksTheGpuFinished) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(SharedModelPath("u2netp"));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  std::vector<RunProgress> seen;
  SessionOptions options;
  options.progress = [&seen](const RunProgress& progress) { seen.push_back(progress); };
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const TensorData input = RandomFloats({1, 3, 320, 320}, 4);
  ASSERT_TRUE((*session)->Run({{(*session)->inputs()[0].name, input}}).ok());
  // u2netp runs for more than 200 ms on any machine glpool targets.
  ASSERT_FALSE(seen.empty());
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].tasks_total, (*session)->tasks().size());
    EXPECT_GE(seen[i].tasks_done, 1u);
    EXPECT_LE(seen[i].tasks_done, seen[i].tasks_total);
    if (i > 0) {
      EXPECT_GT(seen[i].tasks_done, seen[i - 1].tasks_done);
      EXPECT_GE(seen[i].elapsed_ms, seen[i - 1].elapsed_ms + 150);  // at most about every 200 ms
    }
  }
}

TEST(Startup, ReportsEachStepBeforeTheFirstRun) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteConvChainModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  SessionOptions options;
  options.precision = Precision::kFp16;
  options.calibration_inputs = {{"x", RandomFloats({1, 4, 16, 16}, 2)}};
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const StartupReport& startup = (*session)->startup();
  EXPECT_GT(startup.import_ms, 0);
  EXPECT_GT(startup.calibration_ms, 0);
  EXPECT_GT(startup.tasks_ms, 0);
  EXPECT_GT(startup.plan_ms, 0);
  EXPECT_GT(startup.programs_ms, 0);
  EXPECT_GT(startup.warm_ms, 0);  // one work group of each program
  EXPECT_EQ(startup.order_ms, 0);  // the given node order: no search
  // A second shape is prepared afresh and reported for itself; its programs
  // already exist, so none is compiled again.
  SessionOptions same = options;
  same.calibration_inputs.clear();
  StatusOr<std::unique_ptr<Session>> again = Session::Create(*model, same);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ((*again)->startup().shaders_compiled, 0u);
  EXPECT_EQ((*again)->startup().calibration_ms, 0);
}

TEST(TaskTimes, CoverEveryTaskWhenAskedAndNoneOtherwise) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<Model> model = Model::Load(WriteConvChainModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, SessionOptions{});
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const TensorData input = RandomFloats({1, 4, 16, 16}, 3);
  ASSERT_TRUE((*session)->Run({{"x", input}}).ok());
  EXPECT_TRUE((*session)->task_ms().empty());
  EXPECT_TRUE((*session)->task_gpu_ms().empty());

  (*session)->set_time_tasks(true);
  const size_t tasks = (*session)->tasks().size();
  // The first timed run finds out whether the timer queries see compute
  // work; the second then times the GPU's tasks with them alone.
  for (int run = 0; run < 2; ++run) {
    ASSERT_TRUE((*session)->Run({{"x", input}}).ok());
    ASSERT_EQ((*session)->task_ms().size(), tasks);
    // GPU times exist only where the driver's timestamp queries see compute
    // work: then one per task, -1 for CPU tasks.
    const std::vector<double>& gpu_ms = (*session)->task_gpu_ms();
    if (run == 0) {
      EXPECT_FALSE((*session)->task_ms_from_gpu());
    }
    if (gpu_ms.empty()) {
      EXPECT_FALSE((*session)->task_ms_from_gpu());
      for (double ms : (*session)->task_ms()) EXPECT_GT(ms, 0);
      continue;
    }
    ASSERT_EQ(gpu_ms.size(), tasks);
    EXPECT_EQ((*session)->task_ms_from_gpu(), run == 1);
    for (size_t t = 0; t < tasks; ++t) {
      if ((*session)->tasks()[t].on_cpu) {
        EXPECT_EQ(gpu_ms[t], -1.0) << "task " << t;
      } else {
        EXPECT_GE(gpu_ms[t], 0.0) << "task " << t;
        if (run == 1) {
          EXPECT_EQ((*session)->task_ms()[t], gpu_ms[t]) << "task " << t;
        }
      }
    }
  }
  (*session)->set_time_tasks(false);
  ASSERT_TRUE((*session)->Run({{"x", input}}).ok());
  EXPECT_TRUE((*session)->task_ms().empty());
  EXPECT_TRUE((*session)->task_gpu_ms().empty());
}

}  // namespace
}  // namespace glpool::testing_util
