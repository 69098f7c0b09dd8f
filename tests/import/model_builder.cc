#include "model_builder.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace glpool {
namespace testing_util {

namespace {
// Removes the folders MakeTempDir made when the test program exits.
struct TempDirs {
  std::vector<std::string> dirs;
  ~TempDirs() {
    std::error_code ignored;
    for (const std::string& dir : dirs) std::filesystem::remove_all(dir, ignored);
  }
};
TempDirs& AllTempDirs() {
  static TempDirs dirs;
  return dirs;
}
}  // namespace

std::string MakeTempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/glpool_import_XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  const char* dir = mkdtemp(buffer.data());
  if (!dir) return "/tmp";
  AllTempDirs().dirs.push_back(dir);
  return dir;
}

ModelBuilder::ModelBuilder(int64_t opset) {
  model_.set_ir_version(8);
  auto* op = model_.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  model_.mutable_graph()->set_name("test");
}

ModelBuilder& ModelBuilder::Input(const std::string& name, const std::vector<int64_t>& dims, int elem) {
  auto* input = model_.mutable_graph()->add_input();
  input->set_name(name);
  auto* type = input->mutable_type()->mutable_tensor_type();
  type->set_elem_type(elem);
  auto* shape = type->mutable_shape();
  for (int64_t d : dims) {
    if (d < 0) {
      shape->add_dim()->set_dim_param("N");
    } else {
      shape->add_dim()->set_dim_value(d);
    }
  }
  return *this;
}

ModelBuilder& ModelBuilder::Output(const std::string& name, int elem) {
  auto* output = model_.mutable_graph()->add_output();
  output->set_name(name);
  output->mutable_type()->mutable_tensor_type()->set_elem_type(elem);
  return *this;
}

ModelBuilder& ModelBuilder::Node(const std::string& op, const std::vector<std::string>& inputs,
                                 const std::vector<std::string>& outputs, const std::string& name) {
  auto* node = model_.mutable_graph()->add_node();
  node->set_op_type(op);
  node->set_name(name);
  for (const auto& in : inputs) node->add_input(in);
  for (const auto& out : outputs) node->add_output(out);
  return *this;
}

namespace {
onnx::AttributeProto* NewAttr(onnx::ModelProto& model, const std::string& key) {
  auto* graph = model.mutable_graph();
  auto* attr = graph->mutable_node(graph->node_size() - 1)->add_attribute();
  attr->set_name(key);
  return attr;
}
}  // namespace

ModelBuilder& ModelBuilder::AttrInt(const std::string& key, int64_t value) {
  auto* attr = NewAttr(model_, key);
  attr->set_type(onnx::AttributeProto::INT);
  attr->set_i(value);
  return *this;
}

ModelBuilder& ModelBuilder::AttrFloat(const std::string& key, float value) {
  auto* attr = NewAttr(model_, key);
  attr->set_type(onnx::AttributeProto::FLOAT);
  attr->set_f(value);
  return *this;
}

ModelBuilder& ModelBuilder::AttrInts(const std::string& key, const std::vector<int64_t>& values) {
  auto* attr = NewAttr(model_, key);
  attr->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) attr->add_ints(v);
  return *this;
}

ModelBuilder& ModelBuilder::AttrTensor(const std::string& key, const onnx::TensorProto& value) {
  auto* attr = NewAttr(model_, key);
  attr->set_type(onnx::AttributeProto::TENSOR);
  *attr->mutable_t() = value;
  return *this;
}

ModelBuilder& ModelBuilder::AttrGraph(const std::string& key, const onnx::GraphProto& graph) {
  auto* attr = NewAttr(model_, key);
  attr->set_type(onnx::AttributeProto::GRAPH);
  *attr->mutable_g() = graph;
  return *this;
}

onnx::GraphProto BranchGraph(const std::string& name, const std::vector<onnx::NodeProto>& nodes,
                             const std::vector<std::string>& outputs) {
  onnx::GraphProto graph;
  graph.set_name(name);
  for (const onnx::NodeProto& node : nodes) *graph.add_node() = node;
  for (const std::string& output : outputs) graph.add_output()->set_name(output);
  return graph;
}

onnx::NodeProto NodeOf(const std::string& op, const std::vector<std::string>& inputs,
                       const std::vector<std::string>& outputs, const std::string& name) {
  onnx::NodeProto node;
  node.set_op_type(op);
  node.set_name(name);
  for (const std::string& input : inputs) node.add_input(input);
  for (const std::string& output : outputs) node.add_output(output);
  return node;
}

onnx::TensorProto FloatTensorRaw(const std::string& name, const std::vector<int64_t>& dims,
                                 const std::vector<float>& values) {
  onnx::TensorProto tensor;
  tensor.set_name(name);
  tensor.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) tensor.add_dims(d);
  tensor.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  return tensor;
}

onnx::TensorProto Int64TensorRaw(const std::string& name, const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& values) {
  onnx::TensorProto tensor;
  tensor.set_name(name);
  tensor.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) tensor.add_dims(d);
  tensor.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t)));
  return tensor;
}

ModelBuilder& ModelBuilder::FloatInit(const std::string& name, const std::vector<int64_t>& dims,
                                      const std::vector<float>& values) {
  return Init(FloatTensorRaw(name, dims, values));
}

ModelBuilder& ModelBuilder::Int64Init(const std::string& name, const std::vector<int64_t>& dims,
                                      const std::vector<int64_t>& values) {
  return Init(Int64TensorRaw(name, dims, values));
}

ModelBuilder& ModelBuilder::Init(const onnx::TensorProto& tensor) {
  *model_.mutable_graph()->add_initializer() = tensor;
  return *this;
}

std::string ModelBuilder::Save(const std::string& dir, const std::string& file) const {
  const std::string path = dir + "/" + file;
  std::ofstream out(path, std::ios::binary);
  model_.SerializeToOstream(&out);
  return path;
}

}  // namespace testing_util
}  // namespace glpool
