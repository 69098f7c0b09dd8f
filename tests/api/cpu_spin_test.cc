// SessionOptions::cpu_spin: what a run spins, and that spinning changes no
// result.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sched.h>

#include <string>

#include "api_test_util.h"
#include "app_context.h"

namespace glpool::testing_util {
namespace {

// Threads of this process in the idle scheduling class.
int IdleClassThreads() {
  int count = 0;
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return -1;
  while (dirent* entry = readdir(tasks)) {
    const int tid = std::atoi(entry->d_name);
    if (tid > 0 && sched_getscheduler(tid) == SCHED_IDLE) ++count;
  }
  closedir(tasks);
  return count;
}

TEST(CpuSpin, OnOffAndAutoGiveTheSameOutputsAndSayWhatTheyDid) {
  AppEglContext app;
  ASSERT_EQ(app.error(), "");
  StatusOr<GlInfo> info = QueryCurrentGlInfo();
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  const bool software = info->renderer.find("llvmpipe") != std::string::npos;
  StatusOr<Model> model = Model::Load(WriteConvChainModel());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const TensorData input = RandomFloats({1, 4, 16, 16}, 7);
  std::vector<float> first;
  for (CpuSpin spin : {CpuSpin::kOff, CpuSpin::kOn, CpuSpin::kAuto}) {
    SCOPED_TRACE(CpuSpinName(spin));
    SessionOptions options;
    options.cpu_spin = spin;
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model, options);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    const bool expected = spin == CpuSpin::kOn || (spin == CpuSpin::kAuto && software);
    EXPECT_EQ((*session)->startup().cpu_spin, expected);
    StatusOr<std::map<std::string, TensorData>> outputs = (*session)->Run({{"x", input}});
    ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
    const std::vector<float> values = outputs->begin()->second.ToFloats();
    if (first.empty()) first = values;
    EXPECT_EQ(values, first);  // bit for bit
    if (spin == CpuSpin::kOn) {
      // The spinners exist from the first spinning run on, one per CPU, at
      // idle priority: nothing else of this process is.
      EXPECT_GE(IdleClassThreads(), 1);
    }
  }
  // Spinning burns CPU time: a session asked for nothing does not spin.
  StatusOr<std::unique_ptr<Session>> plain = Session::Create(*model, SessionOptions{});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_FALSE((*plain)->startup().cpu_spin);
  EXPECT_EQ(ParseCpuSpin("sometimes").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace glpool::testing_util
