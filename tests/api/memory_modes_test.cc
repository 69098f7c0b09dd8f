// SessionOptions' memory options: the four memory modes (same results,
// their own pools, dynamic's objects made and deleted on every run), graph
// inputs and outputs in the pool, kept intermediates and the kRemoved
// status, and GL failures in the middle of a dynamic run.
#include <gtest/gtest.h>

#include "conv_chain_fixture.h"

namespace glpool::testing_util {
namespace {

int64_t LiveGlObjects() {
  const RuntimeCounters counters = GetRuntimeCounters();
  return static_cast<int64_t>(counters.gl_objects_created) - static_cast<int64_t>(counters.gl_objects_deleted);
}

constexpr MemoryMode kModes[] = {MemoryMode::kPooled, MemoryMode::kNaive, MemoryMode::kReuse, MemoryMode::kDynamic};

class MemoryModes : public ConvChainTest {
 protected:
  std::unique_ptr<Session> Make(const SessionOptions& options) {
    StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    return session.ok() ? std::move(session).value() : nullptr;
  }
  TensorData Output(Session& session) {
    StatusOr<std::map<std::string, TensorData>> outputs = session.Run({{"x", x_}});
    EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
    return outputs.ok() ? outputs->at("y") : TensorData();
  }

  const TensorData x_ = RandomFloats({1, 4, 16, 16}, 11);
};

TEST_F(MemoryModes, EveryModeAndObjectKindGivesTheSameOutputsRunAfterRun) {
  std::unique_ptr<Session> reference = Make({});
  ASSERT_NE(reference, nullptr);
  const TensorData want = Output(*reference);
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures, ObjectKind::kArena}) {
    for (MemoryMode mode : kModes) {
      if (mode == MemoryMode::kDynamic && objects == ObjectKind::kArena) continue;  // refused, tested below
      SCOPED_TRACE(std::string(ObjectKindName(objects)) + ", " + MemoryModeName(mode));
      SessionOptions options;
      options.objects = objects;
      options.memory_mode = mode;
      std::unique_ptr<Session> session = Make(options);
      ASSERT_NE(session, nullptr);
      EXPECT_EQ(session->memory().memory_mode, MemoryModeName(mode));
      for (int run = 0; run < 3; ++run) EXPECT_TRUE(BitIdentical(Output(*session), want)) << "run " << run;
    }
  }
}

// Pooled buffer tensors are read through texture-buffer views of their
// buffers where the context has them; GLPOOL_BUFFER_READS_AS_SSBO=1 reads
// them as storage buffers. Both must give the same bits, and the views are
// GL objects of their own (made once, at Create).
TEST_F(MemoryModes, BufferReadsThroughTextureViewsGiveTheSameBits) {
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kArena}) {
    for (Precision precision : {Precision::kFp32, Precision::kFp16}) {
      SCOPED_TRACE(std::string(ObjectKindName(objects)) + ", " + PrecisionName(precision));
      SessionOptions options;
      options.objects = objects;
      options.precision = precision;
      if (precision == Precision::kFp16) options.calibration_inputs = {{"x", x_}};
      // GL objects a session makes, counted on a second one: the first
      // compiles the programs, which the context's program cache keeps.
      auto make_counted = [&](bool storage, int64_t* objects) {
        if (storage) setenv("GLPOOL_BUFFER_READS_AS_SSBO", "1", 1);
        Make(options);
        const int64_t before = LiveGlObjects();
        std::unique_ptr<Session> session = Make(options);
        *objects = LiveGlObjects() - before;
        unsetenv("GLPOOL_BUFFER_READS_AS_SSBO");
        return session;
      };
      int64_t storage_objects = 0, view_objects = 0;
      std::unique_ptr<Session> storage_reads = make_counted(true, &storage_objects);
      std::unique_ptr<Session> view_reads = make_counted(false, &view_objects);
      ASSERT_NE(storage_reads, nullptr);
      ASSERT_NE(view_reads, nullptr);
      EXPECT_GT(view_objects, storage_objects) << "no texture-buffer view was made";
      const TensorData want = Output(*storage_reads);
      for (int run = 0; run < 2; ++run) EXPECT_TRUE(BitIdentical(Output(*view_reads), want)) << "run " << run;
    }
  }
}

// Dynamic mode makes each buffer every run, and the view its readers read
// it through with it (storage loads run lane by lane on llvmpipe: its runs
// were 3x the pooled mode's without them); both go when the buffer does.
TEST_F(MemoryModes, DynamicBuffersAreReadThroughViewsMadeWithThem) {
  SessionOptions options;
  options.objects = ObjectKind::kBuffers;
  options.memory_mode = MemoryMode::kDynamic;
  const TensorData want = Output(*Make({}));
  // GL objects one Run makes (and deletes), after a first Run.
  auto objects_per_run = [&](Session& session, int64_t* made) {
    EXPECT_TRUE(BitIdentical(Output(session), want));
    const RuntimeCounters before = GetRuntimeCounters();
    const int64_t live = LiveGlObjects();
    EXPECT_TRUE(BitIdentical(Output(session), want));
    *made = static_cast<int64_t>(GetRuntimeCounters().gl_objects_created - before.gl_objects_created);
    EXPECT_EQ(LiveGlObjects(), live) << "a run left objects behind";
  };
  setenv("GLPOOL_BUFFER_READS_AS_SSBO", "1", 1);
  std::unique_ptr<Session> storage_reads = Make(options);
  unsetenv("GLPOOL_BUFFER_READS_AS_SSBO");
  std::unique_ptr<Session> view_reads = Make(options);
  ASSERT_NE(storage_reads, nullptr);
  ASSERT_NE(view_reads, nullptr);
  int64_t storage_made = 0, view_made = 0;
  objects_per_run(*storage_reads, &storage_made);
  objects_per_run(*view_reads, &view_made);
  EXPECT_GT(storage_made, 0);
  EXPECT_GT(view_made, storage_made) << "no view was made with a dynamic buffer";
}

TEST_F(MemoryModes, NaiveHasAnObjectPerTensorReuseSharesEqualSizesPooledTheLeast) {
  SessionOptions options;
  options.memory_mode = MemoryMode::kNaive;
  std::unique_ptr<Session> naive = Make(options);
  options.memory_mode = MemoryMode::kReuse;
  std::unique_ptr<Session> reuse = Make(options);
  options.memory_mode = MemoryMode::kPooled;
  std::unique_ptr<Session> pooled = Make(options);
  ASSERT_TRUE(naive && reuse && pooled);
  EXPECT_EQ(naive->memory().pool_objects, naive->memory().tensors);
  EXPECT_EQ(naive->memory().pool_bytes, naive->memory().naive_bytes);
  EXPECT_EQ(reuse->memory().chosen, "equality");
  // Three equal tensors, two live at once: equality shares as well as any.
  EXPECT_EQ(reuse->memory().pool_objects, 2u);
  EXPECT_LE(pooled->memory().pool_bytes, reuse->memory().pool_bytes);
  EXPECT_LT(pooled->memory().pool_bytes, naive->memory().pool_bytes);
}

TEST_F(MemoryModes, DynamicMakesAndDeletesItsObjectsOnEveryRun) {
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures}) {
    SCOPED_TRACE(ObjectKindName(objects));
    SessionOptions options;
    options.objects = objects;
    options.memory_mode = MemoryMode::kDynamic;
    std::unique_ptr<Session> session = Make(options);
    ASSERT_NE(session, nullptr);
    const MemoryReport& memory = session->memory();
    EXPECT_EQ(memory.gl_pool_bytes, 0u);  // nothing made before a run
    EXPECT_EQ(memory.objects_made_per_run, memory.tensors);
    // The first run of a textures session compiles the copy kernels that
    // move tensors in and out of textures (kept by the context's cache).
    Output(*session);
    for (int run = 0; run < 2; ++run) {
      const int64_t live_before = LiveGlObjects();
      const uint64_t created_before = GetRuntimeCounters().gl_objects_created;
      Output(*session);
      // Every tensor's object made during the run (plus fences), all gone after it.
      EXPECT_GE(GetRuntimeCounters().gl_objects_created - created_before, memory.tensors);
      EXPECT_EQ(LiveGlObjects(), live_before);
      ASSERT_EQ(memory.live_bytes_after_task.size(), session->tasks().size());
      // The curve never passes the peak; the first task's output is live.
      EXPECT_GT(memory.live_bytes_after_task.front(), 0u);
      for (uint64_t live : memory.live_bytes_after_task) EXPECT_LE(live, memory.peak_live_bytes);
      // At most every tensor at once (a fence the GPU has not passed keeps
      // an object counted); at least the two that one convolution binds.
      const uint64_t one = memory.naive_bytes / memory.tensors;
      EXPECT_LE(memory.peak_live_bytes, memory.naive_bytes);
      EXPECT_GE(memory.peak_live_bytes, 2 * one);
    }
  }
}

TEST_F(MemoryModes, DynamicRefusesTheArenaAndHonoursTheBudget) {
  SessionOptions options;
  options.memory_mode = MemoryMode::kDynamic;
  options.objects = ObjectKind::kArena;
  StatusOr<std::unique_ptr<Session>> arena = Session::Create(*model_, options);
  ASSERT_FALSE(arena.ok());
  EXPECT_EQ(arena.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(arena.status().message().find("arena"), std::string::npos) << arena.status().ToString();

  options.objects = ObjectKind::kBuffers;
  options.memory_budget_bytes = 1000;  // a tensor alone is 4 KiB
  const int64_t before = LiveGlObjects();
  StatusOr<std::unique_ptr<Session>> over = Session::Create(*model_, options);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), StatusCode::kOutOfMemory);
  EXPECT_NE(over.status().message().find("memory budget of 1000 bytes"), std::string::npos) << over.status().ToString();
  EXPECT_EQ(LiveGlObjects(), before);
}

TEST_F(MemoryModes, AnOutOfMemoryInTheMiddleOfADynamicRunLeavesNothingBehind) {
  SessionOptions options;
  options.memory_mode = MemoryMode::kDynamic;
  // The pooled reference first: its programs (some read pooled buffers
  // through texture views, unlike dynamic mode's) stay in the context's
  // program cache and are not the session's.
  std::unique_ptr<Session> reference = Make({});
  ASSERT_NE(reference, nullptr);
  const TensorData want = Output(*reference);
  reference.reset();
  const int64_t before = LiveGlObjects();
  {
    std::unique_ptr<Session> session = Make(options);
    ASSERT_NE(session, nullptr);
    const int64_t made = LiveGlObjects();
    InjectGlFaultForTesting(GlFault::kOutOfMemory, 1);  // the run's second allocation
    StatusOr<std::map<std::string, TensorData>> failed = session->Run({{"x", x_}});
    ClearGlFaultsForTesting();
    ASSERT_FALSE(failed.ok()) << "the injected fault was never met";
    EXPECT_EQ(failed.status().code(), StatusCode::kOutOfMemory) << failed.status().ToString();
    // The next run starts clean and succeeds; afterwards the session holds
    // what it held before either run.
    EXPECT_TRUE(BitIdentical(Output(*session), want));
    EXPECT_EQ(LiveGlObjects(), made);
  }
  EXPECT_EQ(LiveGlObjects(), before);
}

TEST_F(MemoryModes, KeptTensorsEqualTheCpuReferenceAndOthersAreRemoved) {
  SessionOptions cpu_options;
  cpu_options.backend = Backend::kCpuReference;
  cpu_options.keep_all = true;
  std::unique_ptr<Session> cpu = Make(cpu_options);
  ASSERT_NE(cpu, nullptr);
  Output(*cpu);
  for (MemoryMode mode : kModes) {
    SCOPED_TRACE(MemoryModeName(mode));
    SessionOptions options;
    options.memory_mode = mode;
    options.keep_all = true;
    std::unique_ptr<Session> all = Make(options);
    ASSERT_NE(all, nullptr);
    EXPECT_EQ(all->memory().kept_tensors, 3u);
    // Kept to the end, no two intermediates can share an object.
    EXPECT_EQ(all->memory().pool_bytes, all->memory().naive_bytes);
    Output(*all);
    for (const char* name : {"c1", "c2", "c3"}) {
      StatusOr<TensorData> got = all->ReadTensor(name);
      StatusOr<TensorData> want = cpu->ReadTensor(name);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ASSERT_TRUE(want.ok()) << want.status().ToString();
      EXPECT_LE(MaxAbsDifference(*got, *want), 1e-5f) << name;
    }

    options.keep_all = false;
    options.keep = {"c2"};
    std::unique_ptr<Session> one = Make(options);
    ASSERT_NE(one, nullptr);
    EXPECT_EQ(one->ReadTensor("c2").status().code(), StatusCode::kInvalidArgument);  // no run yet
    Output(*one);
    StatusOr<TensorData> kept = one->ReadTensor("c2");
    ASSERT_TRUE(kept.ok()) << kept.status().ToString();
    EXPECT_LE(MaxAbsDifference(*kept, *cpu->ReadTensor("c2")), 1e-5f);
    StatusOr<TensorData> removed = one->ReadTensor("c1");
    ASSERT_FALSE(removed.ok());
    EXPECT_EQ(removed.status().code(), StatusCode::kRemoved);
    EXPECT_NE(removed.status().message().find("'c1'"), std::string::npos) << removed.status().ToString();
    EXPECT_NE(removed.status().message().find("--keep c1"), std::string::npos) << removed.status().ToString();
    EXPECT_EQ(one->ReadTensor("no_such_tensor").status().code(), StatusCode::kNotFound);
    // Inputs and outputs have their own objects: readable without keeping.
    StatusOr<TensorData> x = one->ReadTensor("x");
    ASSERT_TRUE(x.ok()) << x.status().ToString();
    EXPECT_TRUE(BitIdentical(*x, x_));
  }
  // The CPU reference answers the same way.
  cpu_options.keep_all = false;
  cpu_options.keep = {"c2"};
  std::unique_ptr<Session> cpu_one = Make(cpu_options);
  ASSERT_NE(cpu_one, nullptr);
  Output(*cpu_one);
  EXPECT_TRUE(cpu_one->ReadTensor("c2").ok());
  EXPECT_EQ(cpu_one->ReadTensor("c1").status().code(), StatusCode::kRemoved);
}

TEST_F(MemoryModes, KeepingAMissingTensorFailsCreateNamingIt) {
  SessionOptions options;
  options.keep = {"c9"};
  StatusOr<std::unique_ptr<Session>> session = Session::Create(*model_, options);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kNotFound);
  EXPECT_NE(session.status().message().find("'c9'"), std::string::npos) << session.status().ToString();
}

TEST_F(MemoryModes, InputsAndOutputsInThePoolGiveTheSameOutputs) {
  std::unique_ptr<Session> reference = Make({});
  ASSERT_NE(reference, nullptr);
  const TensorData want = Output(*reference);
  const uint64_t external = reference->memory().external_bytes;
  for (ObjectKind objects : {ObjectKind::kBuffers, ObjectKind::kTextures, ObjectKind::kArena}) {
    for (MemoryMode mode : kModes) {
      if (mode == MemoryMode::kDynamic && objects == ObjectKind::kArena) continue;
      SCOPED_TRACE(std::string(ObjectKindName(objects)) + ", " + MemoryModeName(mode));
      SessionOptions options;
      options.objects = objects;
      options.memory_mode = mode;
      options.inputs_in_pool = true;
      options.outputs_in_pool = true;
      std::unique_ptr<Session> session = Make(options);
      ASSERT_NE(session, nullptr);
      EXPECT_EQ(session->memory().pooled_inputs, 1u);
      EXPECT_EQ(session->memory().pooled_outputs, 1u);
      EXPECT_EQ(session->memory().tensors, 5u);
      if (objects == ObjectKind::kBuffers) {
        EXPECT_LT(session->memory().external_bytes, external);
      }
      for (int run = 0; run < 2; ++run) EXPECT_TRUE(BitIdentical(Output(*session), want)) << "run " << run;
      // The input's memory was reused: consumed, as documented. The output
      // lives to the end of the run and stays readable.
      EXPECT_EQ(session->ReadTensor("x").status().code(), StatusCode::kRemoved);
      StatusOr<TensorData> y = session->ReadTensor("y");
      ASSERT_TRUE(y.ok()) << y.status().ToString();
      EXPECT_TRUE(BitIdentical(*y, want));
    }
  }
}

TEST_F(MemoryModes, ABoundInputInThePoolIsRefused) {
  SessionOptions options;
  options.inputs_in_pool = true;
  std::unique_ptr<Session> session = Make(options);
  ASSERT_NE(session, nullptr);
  AppBuffer buffer(static_cast<size_t>(x_.bytes.size()), x_.bytes.data());
  ASSERT_TRUE(session->BindInput("x", {buffer.id(), GpuLayout::kNchwBuffer}).ok());
  StatusOr<std::map<std::string, TensorData>> outputs = session->Run();
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(outputs.status().message().find("inputs_in_pool"), std::string::npos) << outputs.status().ToString();
}

}  // namespace
}  // namespace glpool::testing_util
