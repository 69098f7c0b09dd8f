// Initializers in every ONNX storage form, external data present, missing
// and filled, and serialized TensorProto files.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "gpu_backend/graph/float16.h"
#include "gpu_backend/import/onnx_import.h"
#include "model_builder.h"

namespace glpool {
namespace {

using testing_util::ModelBuilder;

// A model computing Y = X + W for a 2x2 initializer W given as `weight`.
StatusOr<Graph> LoadWithWeight(const onnx::TensorProto& weight, const std::string& dir,
                               const ImportOptions& options = {}) {
  ModelBuilder builder;
  builder.Input("X", {2, 2}, weight.data_type()).Init(weight).Node("Add", {"X", weight.name()}, {"Y"}).Output("Y");
  return LoadOnnxModel(builder.Save(dir), options);
}

onnx::TensorProto Weight(int type) {
  onnx::TensorProto tensor;
  tensor.set_name("W");
  tensor.set_data_type(type);
  tensor.add_dims(2);
  tensor.add_dims(2);
  return tensor;
}

TEST(TensorStorage, RawData) {
  StatusOr<Graph> graph = LoadWithWeight(testing_util::FloatTensorRaw("W", {2, 2}, {1, 2, 3, 4}),
                                         testing_util::MakeTempDir());
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->FindTensor("W")->data.ToFloats(), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(graph->FindTensor("Y")->shape, (Shape{2, 2}));
}

TEST(TensorStorage, TypedFields) {
  const std::string dir = testing_util::MakeTempDir();
  {
    onnx::TensorProto w = Weight(onnx::TensorProto::FLOAT);
    for (float v : {1.5f, -2.0f, 3.0f, 4.0f}) w.add_float_data(v);
    StatusOr<Graph> graph = LoadWithWeight(w, dir);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    EXPECT_EQ(graph->FindTensor("W")->data.ToFloats(), (std::vector<float>{1.5f, -2.0f, 3.0f, 4.0f}));
  }
  {
    onnx::TensorProto w = Weight(onnx::TensorProto::DOUBLE);
    for (double v : {0.25, 2.0, -3.0, 8.0}) w.add_double_data(v);
    StatusOr<Graph> graph = LoadWithWeight(w, dir);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    EXPECT_EQ(graph->FindTensor("W")->dtype, DataType::kFloat64);
    EXPECT_EQ(graph->FindTensor("W")->data.ToFloats(), (std::vector<float>{0.25f, 2, -3, 8}));
  }
  {
    onnx::TensorProto w = Weight(onnx::TensorProto::INT64);
    for (int64_t v : {int64_t{1} << 40, int64_t{-2}, int64_t{3}, int64_t{4}}) w.add_int64_data(v);
    StatusOr<Graph> graph = LoadWithWeight(w, dir);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    EXPECT_EQ(graph->FindTensor("W")->data.ToInt64s(), (std::vector<int64_t>{int64_t{1} << 40, -2, 3, 4}));
  }
  for (int type : {onnx::TensorProto::INT32, onnx::TensorProto::INT8, onnx::TensorProto::UINT8,
                   onnx::TensorProto::INT16}) {
    onnx::TensorProto w = Weight(type);
    for (int32_t v : {1, 2, 3, 100}) w.add_int32_data(v);
    StatusOr<Graph> graph = LoadWithWeight(w, dir);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    EXPECT_EQ(graph->FindTensor("W")->data.ToInt64s(), (std::vector<int64_t>{1, 2, 3, 100})) << type;
  }
  {
    onnx::TensorProto w = Weight(onnx::TensorProto::FLOAT16);
    for (float v : {1.0f, -0.5f, 65504.0f, 0.0f}) w.add_int32_data(FloatToHalf(v));
    StatusOr<Graph> graph = LoadWithWeight(w, dir);
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    EXPECT_EQ(graph->FindTensor("W")->dtype, DataType::kFloat16);
    EXPECT_EQ(graph->FindTensor("W")->data.ToFloats(), (std::vector<float>{1.0f, -0.5f, 65504.0f, 0.0f}));
  }
  {
    onnx::TensorProto w = Weight(onnx::TensorProto::BOOL);
    for (int32_t v : {1, 0, 0, 1}) w.add_int32_data(v);
    ModelBuilder builder;
    builder.Input("X", {2, 2}, onnx::TensorProto::BOOL).Init(w).Node("And", {"X", "W"}, {"Y"}).Output("Y");
    StatusOr<Graph> graph = LoadOnnxModel(builder.Save(dir));
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    EXPECT_EQ(graph->FindTensor("W")->data.ToInt64s(), (std::vector<int64_t>{1, 0, 0, 1}));
  }
}

TEST(TensorStorage, CountMismatchIsAnErrorNamingTheTensor) {
  onnx::TensorProto w = Weight(onnx::TensorProto::FLOAT);
  w.add_float_data(1.0f);
  StatusOr<Graph> graph = LoadWithWeight(w, testing_util::MakeTempDir());
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_NE(graph.status().message().find("'W'"), std::string::npos) << graph.status().ToString();
  onnx::TensorProto raw = testing_util::FloatTensorRaw("W", {2, 2}, {1, 2, 3});
  graph = LoadWithWeight(raw, testing_util::MakeTempDir());
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
}

TEST(TensorStorage, UnsupportedDataTypeIsRefused) {
  onnx::TensorProto w = Weight(onnx::TensorProto::BFLOAT16);
  for (int i = 0; i < 4; ++i) w.add_int32_data(0);
  StatusOr<Graph> graph = LoadWithWeight(w, testing_util::MakeTempDir());
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(graph.status().message().find("BFLOAT16"), std::string::npos) << graph.status().ToString();
}

onnx::TensorProto ExternalWeight(const std::string& location, int64_t offset) {
  onnx::TensorProto w = Weight(onnx::TensorProto::FLOAT);
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&w](const std::string& key, const std::string& value) {
    auto* entry = w.add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  };
  add("location", location);
  add("offset", std::to_string(offset));
  add("length", "16");
  return w;
}

TEST(TensorStorage, ExternalDataWithOffset) {
  const std::string dir = testing_util::MakeTempDir();
  const float values[] = {9, 9, 1, 2, 3, 4};  // the tensor starts 8 bytes in
  std::ofstream(dir + "/weights.bin", std::ios::binary).write(reinterpret_cast<const char*>(values), sizeof(values));
  StatusOr<Graph> graph = LoadWithWeight(ExternalWeight("weights.bin", 8), dir);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();
  EXPECT_EQ(graph->FindTensor("W")->data.ToFloats(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(TensorStorage, ExternalDataFileTooShortIsInvalid) {
  const std::string dir = testing_util::MakeTempDir();
  const float values[] = {1, 2};
  std::ofstream(dir + "/short.bin", std::ios::binary).write(reinterpret_cast<const char*>(values), sizeof(values));
  StatusOr<Graph> graph = LoadWithWeight(ExternalWeight("short.bin", 0), dir);
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kInvalidModel);
  EXPECT_NE(graph.status().message().find("short.bin"), std::string::npos) << graph.status().ToString();
}

TEST(TensorStorage, MissingExternalDataNamesTensorAndFile) {
  StatusOr<Graph> graph = LoadWithWeight(ExternalWeight("absent.bin", 0), testing_util::MakeTempDir());
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kNotFound);
  EXPECT_NE(graph.status().message().find("'W'"), std::string::npos) << graph.status().ToString();
  EXPECT_NE(graph.status().message().find("absent.bin"), std::string::npos) << graph.status().ToString();
}

TEST(TensorStorage, MissingExternalDataWithRandomWeightsIsDeterministic) {
  ImportOptions options;
  options.random_weights = true;
  const std::string dir = testing_util::MakeTempDir();
  StatusOr<Graph> first = LoadWithWeight(ExternalWeight("absent.bin", 0), dir, options);
  StatusOr<Graph> second = LoadWithWeight(ExternalWeight("absent.bin", 0), dir, options);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(second.ok());
  const std::vector<float> values = first->FindTensor("W")->data.ToFloats();
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ(values, second->FindTensor("W")->data.ToFloats());
  EXPECT_NE(values, std::vector<float>(4, 0.0f));
  for (float v : values) EXPECT_LE(std::abs(v), 1.0f);
}

TEST(TensorStorage, TensorProtoFiles) {
  const std::string dir = testing_util::MakeTempDir();
  const std::string path = dir + "/input_0.pb";
  {
    std::ofstream out(path, std::ios::binary);
    testing_util::FloatTensorRaw("x", {1, 3}, {1, 2, 3}).SerializeToOstream(&out);
  }
  std::string name;
  StatusOr<TensorData> data = LoadTensorProtoFile(path, &name);
  ASSERT_TRUE(data.ok()) << data.status().ToString();
  EXPECT_EQ(name, "x");
  EXPECT_EQ(data->shape, (Shape{1, 3}));
  EXPECT_EQ(data->ToFloats(), (std::vector<float>{1, 2, 3}));

  std::ofstream(dir + "/bad.pb", std::ios::binary) << "\xff\xff\xff garbage";
  StatusOr<TensorData> bad = LoadTensorProtoFile(dir + "/bad.pb");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidModel);
  EXPECT_NE(bad.status().message().find("bad.pb"), std::string::npos);
  EXPECT_EQ(LoadTensorProtoFile(dir + "/none.pb").status().code(), StatusCode::kNotFound);
}

TEST(TensorStorage, Float16Conversion) {
  for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f, 0.33325195f}) {
    EXPECT_EQ(HalfToFloat(FloatToHalf(v)), v) << v;
  }
  EXPECT_EQ(FloatToHalf(1e6f), 0x7c00);
  EXPECT_EQ(FloatToHalf(1.0f + 1.0f / 4096), FloatToHalf(1.0f));  // ties to even
}

}  // namespace
}  // namespace glpool
