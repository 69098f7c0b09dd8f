#include "planner_test_util.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace glpool {
namespace testing_util {

const char* DistributionName(SizeDistribution d) {
  switch (d) {
    case SizeDistribution::kEqual:
      return "equal";
    case SizeDistribution::kPowersOfTwo:
      return "powers_of_two";
    case SizeDistribution::kWide:
      return "1_to_1e9";
    case SizeDistribution::kUNet:
      return "unet";
  }
  return "?";
}

namespace {

uint64_t Uniform(std::mt19937_64& rng, uint64_t lo, uint64_t hi) {  // inclusive
  return lo + rng() % (hi - lo + 1);
}

uint64_t RandomSize(std::mt19937_64& rng, SizeDistribution d) {
  switch (d) {
    case SizeDistribution::kEqual:
      return 4096;
    case SizeDistribution::kPowersOfTwo:
      return uint64_t{1} << Uniform(rng, 4, 24);
    default: {
      const double log_size = std::ldexp(static_cast<double>(rng() >> 11), -53) * std::log(1e9);
      return std::max<uint64_t>(1, static_cast<uint64_t>(std::exp(log_size)));
    }
  }
}

// Ops in sequence; each output lives from its op to its last consumer, which
// is usually the next op or two, sometimes a later one (a branch).
std::vector<ByteRecord> Sequential(std::mt19937_64& rng, SizeDistribution d, int tensors) {
  std::vector<ByteRecord> records;
  for (int i = 0; i < tensors; ++i) {
    const TaskId first = i;
    uint64_t span = Uniform(rng, 1, 2);
    if (rng() % 5 == 0) span = Uniform(rng, 2, 8);
    records.push_back({RandomSize(rng, d), first, first + static_cast<TaskId>(span)});
  }
  // A few tensors that start together (multi-output ops) and zero-length
  // ones (consumed by the op that made them: live one task).
  if (tensors > 2 && rng() % 3 == 0)
    records.back().first_task = records[records.size() - 2].first_task;
  if (tensors > 1 && rng() % 4 == 0) records.front().last_task = records.front().first_task;
  return records;
}

// Encoder: sizes halve per level, each level's output kept until its
// mirrored decoder level; decoder sizes double back.
std::vector<ByteRecord> UNet(std::mt19937_64& rng, SizeDistribution) {
  const int levels = static_cast<int>(Uniform(rng, 1, 4));
  const int per_level = static_cast<int>(Uniform(rng, 1, 3));
  uint64_t size = uint64_t{1} << Uniform(rng, 16, 26);
  std::vector<ByteRecord> records;
  std::vector<size_t> skips;
  TaskId task = 0;
  for (int l = 0; l < levels; ++l) {
    for (int k = 0; k < per_level; ++k, ++task) records.push_back({size, task, task + 1});
    skips.push_back(records.size() - 1);  // lives until its decoder level
    size = std::max<uint64_t>(1, size / 2);
  }
  records.push_back({size, task, task + 1});  // bottleneck
  ++task;
  for (int l = levels - 1; l >= 0; --l) {
    size *= 2;
    records[skips[l]].last_task = task;  // concatenated here
    for (int k = 0; k < per_level; ++k, ++task) {
      records.push_back({k == 0 ? 2 * size : size, task, task + 1});
    }
  }
  return records;
}

}  // namespace

std::vector<ByteRecord> RandomRecords(std::mt19937_64& rng, SizeDistribution d, int tensors) {
  return d == SizeDistribution::kUNet ? UNet(rng, d) : Sequential(rng, d, tensors);
}

std::vector<std::string> JsonFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace testing_util
}  // namespace glpool
