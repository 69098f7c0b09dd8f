// `glpool ops` (glpool/ops.h, SupportedOnnxOps) agrees with the registries
// it reads and with the importer: every op the CPU reference runs is listed
// with its registered opset range, the GPU flag matches the GPU kernel
// registry, the fusion flags match the fusion lists, every GPU kernel note
// belongs to a registered kernel, and every listed op imports — a model
// holding it, from ONNX's backend cases or the project's own cases, gets
// through import.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "glpool/ops.h"
#include "gpu_backend/cpu_reference/registry.h"
#include "gpu_backend/graph/fused_activation.h"
#include "gpu_backend/import/file_util.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/kernels/kernel.h"
#include "gpu_backend/kernels/kernel_notes.h"

namespace glpool {
namespace {

std::map<std::string, OnnxOpInfo> ListedOps() {
  std::map<std::string, OnnxOpInfo> ops;
  for (const OnnxOpInfo& op : SupportedOnnxOps()) {
    EXPECT_TRUE(ops.emplace(op.name, op).second) << op.name << " is listed twice";
  }
  return ops;
}

TEST(OpsListing, ListsExactlyTheCpuReferenceOps) {
  std::vector<std::string> listed;
  for (const OnnxOpInfo& op : SupportedOnnxOps()) listed.push_back(op.name);
  EXPECT_TRUE(std::is_sorted(listed.begin(), listed.end()));
  EXPECT_EQ(listed, cpu_reference::SupportedOps());
}

TEST(OpsListing, OpsetRangesAreTheRegisteredOnes) {
  for (const auto& [name, op] : ListedOps()) {
    EXPECT_GE(op.since_opset, MinOnnxOpset()) << name;
    EXPECT_LE(op.until_opset, MaxOnnxOpset()) << name;
    EXPECT_NE(cpu_reference::FindKernel(name, op.since_opset), nullptr) << name << " at its first opset";
    EXPECT_NE(cpu_reference::FindKernel(name, op.until_opset), nullptr) << name << " at its last opset";
    if (op.since_opset > MinOnnxOpset()) {
      EXPECT_EQ(cpu_reference::FindKernel(name, op.since_opset - 1), nullptr) << name << " before its first opset";
    }
    if (op.until_opset < MaxOnnxOpset()) {
      EXPECT_EQ(cpu_reference::FindKernel(name, op.until_opset + 1), nullptr) << name << " after its last opset";
    }
  }
}

TEST(OpsListing, GpuFlagFollowsTheKernelRegistry) {
  const std::map<std::string, OnnxOpInfo> ops = ListedOps();
  for (const KernelEntry& entry : KernelRegistry()) {
    auto it = ops.find(entry.op_type);
    // Internal ops (cpu_reference/registry.h) are never imported: unlisted.
    if (cpu_reference::IsInternalOp(entry.op_type)) {
      EXPECT_EQ(it, ops.end()) << entry.op_type << " is internal but `glpool ops` lists it";
      continue;
    }
    ASSERT_NE(it, ops.end()) << entry.op_type << " has a GPU kernel but `glpool ops` does not list it";
    EXPECT_TRUE(it->second.gpu_kernel) << entry.op_type << " has a GPU kernel but is listed CPU-only";
  }
  for (const auto& [name, op] : ops) {
    EXPECT_EQ(op.gpu_kernel, FindKernel(name) != nullptr) << name;
    if (!op.gpu_kernel) {
      EXPECT_TRUE(op.gpu_limits.empty()) << name << " is CPU-only but has GPU notes";
      EXPECT_TRUE(op.compile_time_inputs.empty()) << name;
    }
  }
  int cpu_only = 0;
  for (const auto& [name, op] : ops) cpu_only += op.gpu_kernel ? 0 : 1;
  EXPECT_GT(cpu_only, 0) << "LSTM, GRU and the quantized ops have no GPU kernel; the listing shows none CPU-only";
}

TEST(OpsListing, EveryGpuKernelNoteBelongsToARegisteredKernel) {
  for (const GpuKernelNote& note : GpuKernelNotes()) {
    bool used = false;
    for (const KernelEntry& entry : KernelRegistry()) used = used || entry.build == note.builder;
    EXPECT_TRUE(used) << "the note '" << note.text << "' is for a descriptor no op is registered with";
    for (const char* op : note.ops) {
      const KernelEntry* entry = FindKernel(op);
      EXPECT_TRUE(entry != nullptr && entry->build == note.builder)
          << "the note '" << note.text << "' names " << op << ", which is not registered with that descriptor";
    }
  }
}

TEST(OpsListing, FusionFlagsFollowTheFusionLists) {
  const std::map<std::string, OnnxOpInfo> ops = ListedOps();
  const std::vector<std::string> activations = FusableActivations();
  EXPECT_FALSE(activations.empty());
  for (const std::string& activation : activations) {
    auto it = ops.find(activation);
    ASSERT_NE(it, ops.end()) << activation << " is fusable but not listed";
    EXPECT_TRUE(it->second.fusable_activation) << activation;
    EXPECT_TRUE(it->second.gpu_kernel) << activation << " is fusable but has no GPU kernel of its own";
  }
  for (const auto& [name, op] : ops) {
    EXPECT_EQ(op.fusable_activation, IsFusableActivation(name)) << name;
  }
  EXPECT_TRUE(ops.at("Conv").takes_fused_activation);
  EXPECT_FALSE(ops.at("Relu").takes_fused_activation);
}

std::vector<std::string> SubDirs(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent* entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(dir + "/" + name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

// Case folders by the ops their model's graph holds.
std::map<std::string, std::vector<std::string>> CasesByOp(const std::vector<std::string>& roots) {
  std::map<std::string, std::vector<std::string>> cases;
  for (const std::string& root : roots) {
    // A root may itself be a case folder (tests/data/quantized_ops).
    std::vector<std::string> dirs = SubDirs(root);
    dirs.push_back(root);
    for (const std::string& dir : dirs) {
      StatusOr<std::string> bytes = ReadFileBytes(dir + "/model.onnx");
      onnx::ModelProto model;
      if (!bytes.ok() || !ParseProto(*bytes, &model)) continue;
      std::set<std::string> ops;
      for (const auto& node : model.graph().node()) {
        if (node.domain().empty() || node.domain() == "ai.onnx") ops.insert(node.op_type());
      }
      for (const std::string& op : ops) cases[op].push_back(dir);
    }
  }
  return cases;
}

TEST(OpsListing, EveryListedOpImports) {
  const std::string testdata = "/usr/share/libonnx-testdata/data";
  ASSERT_FALSE(SubDirs(testdata + "/node").empty())
      << testdata << " is empty: install libonnx-testdata (scripts/install-deps.sh does)";
  const std::string data = std::string(GLPOOL_SOURCE_DIR) + "/tests/data";
  std::vector<std::string> roots = {testdata + "/node", testdata + "/simple", testdata + "/pytorch-operator"};
  for (const std::string& dir : SubDirs(data)) roots.push_back(dir);
  const std::map<std::string, std::vector<std::string>> cases = CasesByOp(roots);
  // ONNX's cases hold well over a hundred ops; fewer means the folders were not read.
  ASSERT_GT(cases.size(), 100u) << "ops found in the cases under " << testdata;
  for (const auto& [name, op] : ListedOps()) {
    auto it = cases.find(name);
    if (it == cases.end()) {
      ADD_FAILURE() << name << " is listed but no case under " << testdata << " or " << data
                    << " holds it: add one (docs/adding-an-op.md, step 5)";
      continue;
    }
    std::string last_error;
    bool imported = false;
    for (const std::string& dir : it->second) {
      StatusOr<Graph> graph = LoadOnnxModel(dir + "/model.onnx");
      if (graph.ok()) {
        imported = true;
        break;
      }
      last_error = graph.status().ToString();
    }
    EXPECT_TRUE(imported) << name << " is listed by `glpool ops` but none of its " << it->second.size()
                          << " cases imports; the last: " << last_error;
  }
}

}  // namespace
}  // namespace glpool
