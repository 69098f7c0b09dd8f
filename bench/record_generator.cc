#include "bench/record_generator.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace glpool {
namespace bench {
namespace {

// One block of the transformer: names, sizes (in elements) and which tasks
// read each tensor, relative to the block's first task.
RecordSet Transformer(size_t tensors, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint64_t hidden = uint64_t{256} << (rng() % 3);  // 256, 512, 1024
  const uint64_t seq = 64 + 64 * (rng() % 8);            // 64 .. 512
  const uint64_t heads = hidden / 64;
  const uint64_t act = 4 * seq * hidden;  // bytes of one fp32 activation
  const uint64_t scores = 4 * heads * seq * seq;
  RecordSet set;
  set.model = "transformer_" + std::to_string(tensors);
  const size_t blocks = std::max<size_t>(1, (tensors - 1) / 13);  // + the embedding
  // Tasks of one block: 0 ln1, 1 q, 2 k, 3 v, 4 scores, 5 softmax, 6 attn,
  // 7 proj, 8 add1, 9 ln2, 10 up, 11 gelu, 12 down+add2.
  struct Tensor {
    const char* name;
    uint64_t bytes;
    TaskId produced, last_read;
  };
  const Tensor block[] = {
      {"ln1", act, 0, 3},        {"q", act, 1, 4},          {"k", act, 2, 4},
      {"v", act, 3, 6},          {"scores", scores, 4, 5},  {"softmax", scores, 5, 6},
      {"attn", act, 6, 7},       {"proj", act, 7, 8},       {"add1", act, 8, 12},
      {"ln2", act, 9, 10},       {"up", 4 * act, 10, 11},   {"gelu", 4 * act, 11, 12},
      {"out", act, 12, 13 + 8},  // read by the next block's ln1 and add1
  };
  TaskId base = 0;
  set.records.push_back({act, 0, 8});  // the embedding feeds block 0's ln1 and add1
  set.names.push_back("embed");
  base = 1;
  for (size_t b = 0; b < blocks; ++b) {
    for (const Tensor& t : block) {
      TaskId last = base + t.last_read;
      if (b + 1 == blocks && &t == &block[12]) last = base + 12;  // the model output
      set.records.push_back({t.bytes, base + t.produced, last});
      set.names.push_back("b" + std::to_string(b) + "." + t.name);
    }
    base += 13;
  }
  set.tasks = base;
  return set;
}

RecordSet RandomIntervals(size_t tensors, uint64_t seed) {
  std::mt19937_64 rng(seed);
  RecordSet set;
  set.model = "random_" + std::to_string(tensors);
  const TaskId tasks = static_cast<TaskId>(std::max<size_t>(1, tensors));
  std::uniform_int_distribution<TaskId> start(0, tasks - 1);
  std::uniform_int_distribution<TaskId> short_life(0, 7);
  // Long lives are capped at 1,000 tasks, so about as many tensors are live at
  // once at every size, as in networks, whose width does not grow with depth.
  std::uniform_int_distribution<TaskId> long_life(0, std::min<TaskId>(1000, std::max<TaskId>(1, tasks / 10)));
  std::uniform_real_distribution<double> log_size(std::log(1024.0), std::log(4.0 * 1024 * 1024));
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  for (size_t i = 0; i < tensors; ++i) {
    const TaskId first = start(rng);
    const TaskId life = coin(rng) < 0.85 ? short_life(rng) : long_life(rng);
    const TaskId last = std::min(tasks - 1, first + life);
    const uint64_t bytes = (static_cast<uint64_t>(std::exp(log_size(rng))) + 255) / 256 * 256;
    set.records.push_back({bytes, first, last});
    set.names.push_back("t" + std::to_string(i));
  }
  set.tasks = tasks;
  return set;
}

}  // namespace

const char* RecordShapeName(RecordShape shape) {
  return shape == RecordShape::kTransformer ? "transformer" : "random";
}

RecordSet GenerateRecords(RecordShape shape, size_t tensors, uint64_t seed) {
  return shape == RecordShape::kTransformer ? Transformer(tensors, seed)
                                            : RandomIntervals(tensors, seed);
}

}  // namespace bench
}  // namespace glpool
