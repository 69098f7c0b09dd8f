// Hostile models: each case here once read a file outside the model's
// folder, ran with a silently defaulted attribute, crashed (SIGFPE,
// SIGSEGV, std::bad_alloc) or took minutes. Each must now be a clear error
// naming the tensor, node or attribute — or, for the long chain, just work.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>

#include "common/file_read.h"
#include "gpu_backend/graph/passes/passes.h"
#include "gpu_backend/import/onnx_import.h"
#include "gpu_backend/kernels/kernel_check.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::ModelBuilder;

bool Mentions(const Status& status, const std::string& text) {
  return status.message().find(text) != std::string::npos;
}

// Add(X, W) with W's four floats stored externally at `location`.
ModelBuilder ExternalWeightModel(const std::string& location, const std::string& offset = "0") {
  onnx::TensorProto w;
  w.set_name("W");
  w.set_data_type(onnx::TensorProto::FLOAT);
  w.add_dims(4);
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"location", location}, {"offset", offset}}) {
    auto* entry = w.add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  }
  ModelBuilder builder;
  builder.Input("X", {4}).Init(w).Node("Add", {"X", "W"}, {"Y"}).Output("Y");
  return builder;
}

void WriteFloats(const std::string& path) {
  const float values[] = {1, 2, 3, 4};
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(values), sizeof(values));
}

TEST(HostileModel, ExternalDataInsideTheFolderIsRead) {
  const std::string dir = testing_util::MakeTempDir();
  WriteFloats(dir + "/w.bin");
  StatusOr<Graph> graph = LoadOnnxModel(ExternalWeightModel("w.bin").Save(dir));
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->FindTensor("W")->data.ToFloats(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(HostileModel, ExternalDataCannotLeaveTheModelFolder) {
  const std::string outside = testing_util::MakeTempDir();
  WriteFloats(outside + "/secret.bin");
  const std::string dir = testing_util::MakeTempDir();
  ASSERT_EQ(::symlink((outside + "/secret.bin").c_str(), (dir + "/link.bin").c_str()), 0);
  const std::string escape = "../../../../../../../.." + outside + "/secret.bin";
  for (const std::string& location : {escape, outside + "/secret.bin", std::string("link.bin")}) {
    StatusOr<Graph> graph = LoadOnnxModel(ExternalWeightModel(location).Save(dir));
    ASSERT_FALSE(graph.ok()) << location << " was read";
    EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel) << graph.status().ToString();
    EXPECT_TRUE(Mentions(graph.status(), "tensor 'W'")) << graph.status().ToString();
    EXPECT_TRUE(Mentions(graph.status(), location)) << graph.status().ToString();
  }
  // Random weights fill only missing files, never refused ones.
  ImportOptions random;
  random.random_weights = true;
  EXPECT_FALSE(LoadOnnxModel(ExternalWeightModel(escape).Save(dir), random).ok());
}

TEST(HostileModel, AnotherExternalDataRootCanBeAllowed) {
  const std::string root = testing_util::MakeTempDir();
  const std::string dir = root + "/models";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  WriteFloats(root + "/shared_weights.bin");
  const std::string path = ExternalWeightModel("../shared_weights.bin").Save(dir);
  EXPECT_FALSE(LoadOnnxModel(path).ok());
  ImportOptions options;
  options.external_data_root = root;
  StatusOr<Graph> graph = LoadOnnxModel(path, options);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->FindTensor("W")->data.ToFloats(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(HostileModel, ExternalDataOffsetNearInt64MaxIsAnError) {
  const std::string dir = testing_util::MakeTempDir();
  WriteFloats(dir + "/w.bin");
  for (const std::string& offset : {std::to_string(INT64_MAX), std::string("99999999999999999999999")}) {
    StatusOr<Graph> graph = LoadOnnxModel(ExternalWeightModel("w.bin", offset).Save(dir));
    ASSERT_FALSE(graph.ok()) << offset;
    EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
    EXPECT_TRUE(Mentions(graph.status(), "tensor 'W'")) << graph.status().ToString();
  }
}

// One node `op` on X (1x3x4x4) with `attribute` of the wrong type.
StatusOr<Graph> LoadWithAttribute(const std::string& op, std::vector<std::string> inputs,
                                  const onnx::AttributeProto& attribute) {
  ModelBuilder builder;
  builder.Input("X", {1, 3, 4, 4}).FloatInit("W", {3, 1, 1, 1}, {1, 1, 1});
  builder.Node(op, inputs, {"Y"}, "n").Output("Y");
  *builder.model().mutable_graph()->mutable_node(0)->add_attribute() = attribute;
  return LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
}

TEST(HostileModel, AttributeOfTheWrongTypeIsAnErrorNotADefault) {
  using A = onnx::AttributeProto;
  struct Case {
    std::string op;
    std::vector<std::string> inputs;
    std::string attribute;
    A::AttributeType type;
  };
  const std::vector<Case> cases = {{"Transpose", {"X"}, "perm", A::FLOAT},
                                   {"Concat", {"X", "X"}, "axis", A::STRING},
                                   {"Conv", {"X", "W"}, "group", A::FLOAT},
                                   {"Softmax", {"X"}, "axis", A::INTS}};
  for (const Case& c : cases) {
    A attribute;
    attribute.set_name(c.attribute);
    attribute.set_type(c.type);
    attribute.set_f(3.0f);
    attribute.set_s("1");
    attribute.add_ints(1);
    StatusOr<Graph> graph = LoadWithAttribute(c.op, c.inputs, attribute);
    ASSERT_FALSE(graph.ok()) << c.op << "." << c.attribute << " was accepted";
    EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
    EXPECT_TRUE(Mentions(graph.status(), "node 'n'")) << graph.status().ToString();
    EXPECT_TRUE(Mentions(graph.status(), "attribute '" + c.attribute + "'")) << graph.status().ToString();
  }
}

TEST(HostileModel, UnknownAndRepeatedAttributesAreErrors) {
  onnx::AttributeProto attribute;
  attribute.set_name("no_such_attribute");
  attribute.set_type(onnx::AttributeProto::INT);
  StatusOr<Graph> graph = LoadWithAttribute("Relu", {"X"}, attribute);
  ASSERT_FALSE(graph.ok());
  EXPECT_TRUE(Mentions(graph.status(), "no_such_attribute")) << graph.status().ToString();
}

TEST(HostileModel, ScanWithoutItsBodyIsAnErrorNotACrash) {
  ModelBuilder builder(11);
  builder.Input("X", {1, 3}).Node("Scan", {"X"}, {"Y"}, "scan").AttrInt("num_scan_inputs", 1).Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(graph.status(), "required attribute 'body'")) << graph.status().ToString();
}

TEST(HostileModel, HugeStaticInputNamesTheTensorAndItsBytes) {
  ModelBuilder builder;
  builder.Input("big", {100000, 100000}).Node("Relu", {"big"}, {"Y"}).Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Mentions(graph.status(), "'big'")) << graph.status().ToString();
  EXPECT_TRUE(Mentions(graph.status(), "40000000000 bytes")) << graph.status().ToString();
}

TEST(HostileModel, ReshapeToAHugeShapeIsAnError) {
  ModelBuilder builder;
  const int64_t side = int64_t{1} << 31;
  builder.Input("X", {1, 3, 4, 4}).Int64Init("shape", {3}, {side, side, side});
  builder.Node("Reshape", {"X", "shape"}, {"Y"}, "reshape").Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_FALSE(graph.ok());
  EXPECT_TRUE(Mentions(graph.status(), "reshape")) << graph.status().ToString();
}

TEST(HostileModel, ConvWithZeroOutputChannelsIsRefusedByItsKernel) {
  ModelBuilder builder;
  builder.Input("X", {1, 3, 4, 4}).FloatInit("W", {0, 3, 1, 1}, {});
  builder.Node("Conv", {"X", "W"}, {"Y"}, "empty_conv").Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();  // a valid (empty) ONNX model
  Status checked = CheckGpuKernels(*graph);
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.code(), StatusCode::kInvalidModel);
  EXPECT_TRUE(Mentions(checked, "empty_conv")) << checked.ToString();
}

TEST(HostileModel, KernelCheckRefusesWhatRunRefuses) {
  ModelBuilder builder;
  builder.Input("X", {1, 3, 4, 4}).Node("Softmax", {"X"}, {"Y"}, "softmax").AttrInt("axis", 99).Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  if (graph.ok()) {
    Status checked = CheckGpuKernels(*graph);
    ASSERT_FALSE(checked.ok());
    EXPECT_TRUE(Mentions(checked, "softmax")) << checked.ToString();
  } else {
    EXPECT_TRUE(Mentions(graph.status(), "softmax")) << graph.status().ToString();
  }
}

TEST(HostileModel, TenThousandChainedIdentitiesAreAllRemoved) {
  ModelBuilder builder;
  builder.Input("X", {1, 3, 4, 4});
  std::string previous = "X";
  for (int i = 0; i < 10000; ++i) {
    const std::string next = "t" + std::to_string(i);
    builder.Node("Identity", {previous}, {next});
    previous = next;
  }
  builder.Node("Relu", {previous}, {"Y"}, "relu").Output("Y");
  StatusOr<Graph> graph = LoadOnnxModel(builder.Save(testing_util::MakeTempDir()));
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  ASSERT_TRUE(RunDefaultPasses(*graph).ok());
  ASSERT_EQ(graph->nodes.size(), 1u);
  EXPECT_EQ(graph->nodes[0].inputs, (std::vector<std::string>{"X"}));
  EXPECT_EQ(graph->FindTensor("t5000"), nullptr);
}

TEST(HostileModel, OnlyRegularFilesOfBoundedSizeAreRead) {
  for (const std::string& path : {std::string("/dev/zero"), testing_util::MakeTempDir()}) {
    StatusOr<Graph> graph = LoadOnnxModel(path);
    ASSERT_FALSE(graph.ok()) << path;
    EXPECT_EQ(graph.status().code(), StatusCode::kInvalidArgument) << graph.status().ToString();
    EXPECT_TRUE(Mentions(graph.status(), path)) << graph.status().ToString();
  }
  const std::string file = testing_util::MakeTempDir() + "/five.bin";
  std::ofstream(file) << "12345";
  StatusOr<std::string> limited = ReadWholeFile(file, "test", 4);
  ASSERT_FALSE(limited.ok());
  EXPECT_TRUE(Mentions(limited.status(), "4-byte limit")) << limited.status().ToString();
  EXPECT_EQ(*ReadWholeFile(file, "test", 5), "12345");
}

}  // namespace
}  // namespace glpool
