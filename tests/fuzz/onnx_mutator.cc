// Structure-aware mutation for the ONNX target (libFuzzer's
// LLVMFuzzerCustomMutator contract; the standalone driver calls it too).
//
// Random bytes in a protobuf mostly stop at the parser, so most mutations
// here parse the ModelProto, change one field the importer reads (a dim, an
// attribute's type or value, a node's inputs or op type, an initializer's
// type or payload size, the opset, the node list) and serialize it again.
// One in eight falls back to byte mutation, which still reaches the
// parser's own error paths and the models the fields above cannot express.
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using Random = std::mt19937_64;

int64_t InterestingInt(Random& random) {
  static const int64_t values[] = {0, 1, -1, 2, 3, 4, 7, 13, 64, 255, 65536, int64_t{1} << 31,
                                   int64_t{1} << 32, int64_t{1} << 62, std::numeric_limits<int64_t>::max(),
                                   std::numeric_limits<int64_t>::min(), -2, 99, -99};
  if (random() % 4 == 0) return static_cast<int64_t>(random() % 32) - 8;
  return values[random() % (sizeof(values) / sizeof(values[0]))];
}

float InterestingFloat(Random& random) {
  static const float values[] = {0.0f, 1.0f, -1.0f, 0.5f, 1e-30f, 1e30f, std::numeric_limits<float>::infinity(),
                                 -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                                 2.0f, 3.0f, 1.0f / 6.0f};
  return values[random() % (sizeof(values) / sizeof(values[0]))];
}

// ONNX operators the importer and the CPU reference know, plus a few it
// does not, so op swaps reach both the rules and the refusals.
const char* RandomOpType(Random& random) {
  static const char* ops[] = {
      "Conv", "ConvTranspose", "Relu", "Add", "Mul", "Sub", "Div", "MatMul", "Gemm", "Reshape", "Transpose",
      "Concat", "Split", "Slice", "Gather", "Squeeze", "Unsqueeze", "Flatten", "Resize", "Upsample", "MaxPool",
      "AveragePool", "GlobalAveragePool", "BatchNormalization", "InstanceNormalization", "Softmax",
      "ReduceMean", "ReduceSum", "Pad", "Expand", "Tile", "Shape", "Cast", "ConstantOfShape", "Range",
      "Where", "Equal", "Clip", "Sigmoid", "HardSigmoid", "HardSwish", "LeakyRelu", "Identity", "Dropout",
      "Constant", "ArgMax", "TopK", "Scan", "Loop", "If", "NonZero", "LayerNormalization", "Einsum",
      "DepthToSpace", "Sum", "Max", "Min", "Pow", "Sqrt", "Erf", "Tanh", "Neg", "Not", "LRN", "NoSuchOp"};
  return ops[random() % (sizeof(ops) / sizeof(ops[0]))];
}

const char* RandomAttributeName(Random& random) {
  static const char* names[] = {"axis", "axes", "perm", "group", "pads", "strides", "kernel_shape", "dilations",
                                "mode", "keepdims", "alpha", "beta", "epsilon", "to", "value", "split",
                                "auto_pad", "ceil_mode", "transA", "transB", "output_padding", "blocksize",
                                "seed", "training_mode", "starts", "ends", "coordinate_transformation_mode"};
  return names[random() % (sizeof(names) / sizeof(names[0]))];
}

// Every tensor name the graph mentions, for rewiring node inputs.
std::vector<std::string> TensorNames(const onnx::GraphProto& graph) {
  std::vector<std::string> names = {""};
  for (const auto& v : graph.input()) names.push_back(v.name());
  for (const auto& t : graph.initializer()) names.push_back(t.name());
  for (const auto& node : graph.node()) {
    for (const auto& o : node.output()) names.push_back(o);
  }
  return names;
}

void MutateDims(onnx::GraphProto* graph, Random& random) {
  std::vector<google::protobuf::RepeatedField<int64_t>*> initializer_dims;
  for (auto& t : *graph->mutable_initializer()) initializer_dims.push_back(t.mutable_dims());
  std::vector<onnx::TensorShapeProto*> shapes;
  for (auto* list : {graph->mutable_input(), graph->mutable_output(), graph->mutable_value_info()}) {
    for (auto& v : *list) {
      if (v.type().has_tensor_type()) shapes.push_back(v.mutable_type()->mutable_tensor_type()->mutable_shape());
    }
  }
  const size_t total = initializer_dims.size() + shapes.size();
  if (total == 0) return;
  const size_t pick = random() % total;
  if (pick < initializer_dims.size()) {
    auto* dims = initializer_dims[pick];
    if (dims->empty() || random() % 4 == 0) {
      dims->Add(InterestingInt(random));
    } else if (random() % 4 == 0) {
      dims->RemoveLast();
    } else {
      dims->Set(static_cast<int>(random() % dims->size()), InterestingInt(random));
    }
    return;
  }
  onnx::TensorShapeProto* shape = shapes[pick - initializer_dims.size()];
  if (shape->dim_size() == 0 || random() % 5 == 0) {
    shape->add_dim()->set_dim_value(InterestingInt(random));
  } else if (random() % 5 == 0) {
    shape->mutable_dim()->RemoveLast();
  } else {
    auto* dim = shape->mutable_dim(static_cast<int>(random() % shape->dim_size()));
    if (random() % 4 == 0) {
      dim->set_dim_param("N");
    } else {
      dim->set_dim_value(InterestingInt(random));
    }
  }
}

void MutateAttribute(onnx::AttributeProto* attr, Random& random) {
  switch (random() % 7) {
    case 0:  // a wrong type tag over the same payload
      attr->set_type(static_cast<onnx::AttributeProto::AttributeType>(random() % 15));
      break;
    case 1:
      attr->set_type(onnx::AttributeProto::INT);
      attr->set_i(InterestingInt(random));
      break;
    case 2:
      attr->set_type(onnx::AttributeProto::FLOAT);
      attr->set_f(InterestingFloat(random));
      break;
    case 3:
      attr->set_type(onnx::AttributeProto::INTS);
      if (attr->ints_size() > 0 && random() % 2 == 0) {
        attr->set_ints(static_cast<int>(random() % attr->ints_size()), InterestingInt(random));
      } else if (attr->ints_size() > 0 && random() % 2 == 0) {
        attr->mutable_ints()->RemoveLast();
      } else {
        attr->add_ints(InterestingInt(random));
      }
      break;
    case 4: {
      static const char* strings[] = {"", "linear", "nearest", "cubic", "SAME_UPPER", "VALID", "NOTSET",
                                      "half_pixel", "align_corners", "constant", "reflect", "edge", "bogus"};
      attr->set_type(onnx::AttributeProto::STRING);
      attr->set_s(strings[random() % (sizeof(strings) / sizeof(strings[0]))]);
      break;
    }
    case 5:
      attr->set_type(onnx::AttributeProto::FLOATS);
      attr->add_floats(InterestingFloat(random));
      break;
    default:  // a tensor value of some shape and type
      attr->set_type(onnx::AttributeProto::TENSOR);
      attr->mutable_t()->set_data_type(static_cast<int32_t>(random() % 17));
      attr->mutable_t()->add_dims(InterestingInt(random));
      attr->mutable_t()->add_float_data(InterestingFloat(random));
      break;
  }
}

void MutateNode(onnx::GraphProto* graph, Random& random) {
  if (graph->node_size() == 0) {
    auto* node = graph->add_node();
    node->set_op_type(RandomOpType(random));
    return;
  }
  auto* node = graph->mutable_node(static_cast<int>(random() % graph->node_size()));
  const std::vector<std::string> names = TensorNames(*graph);
  switch (random() % 8) {
    case 0: node->set_op_type(RandomOpType(random)); break;
    case 1:
      if (node->input_size() > 0) {
        node->set_input(static_cast<int>(random() % node->input_size()), names[random() % names.size()]);
      }
      break;
    case 2: node->add_input(names[random() % names.size()]); break;
    case 3:
      if (node->input_size() > 0) node->mutable_input()->RemoveLast();
      break;
    case 4:
      if (node->output_size() > 0) {
        node->set_output(static_cast<int>(random() % node->output_size()), names[random() % names.size()]);
      } else {
        node->add_output("fuzz_out");
      }
      break;
    case 5:
      if (node->attribute_size() > 0) {
        MutateAttribute(node->mutable_attribute(static_cast<int>(random() % node->attribute_size())), random);
      }
      break;
    case 6: {
      auto* attr = node->add_attribute();
      attr->set_name(RandomAttributeName(random));
      MutateAttribute(attr, random);
      break;
    }
    default:  // duplicate, delete or move a node
      if (random() % 3 == 0) {
        *graph->add_node() = *node;
      } else if (random() % 2 == 0) {
        graph->mutable_node()->DeleteSubrange(static_cast<int>(random() % graph->node_size()), 1);
      } else if (graph->node_size() > 1) {
        graph->mutable_node()->SwapElements(static_cast<int>(random() % graph->node_size()),
                                            static_cast<int>(random() % graph->node_size()));
      }
      break;
  }
}

void MutateInitializer(onnx::GraphProto* graph, Random& random) {
  if (graph->initializer_size() == 0) return;
  auto* t = graph->mutable_initializer(static_cast<int>(random() % graph->initializer_size()));
  switch (random() % 6) {
    case 0: t->set_data_type(static_cast<int32_t>(random() % 17)); break;
    case 1: {  // raw payload one element short, long, or empty
      std::string raw = t->raw_data();
      if (random() % 3 == 0) raw.clear();
      else if (random() % 2 == 0 && !raw.empty()) raw.resize(raw.size() - 1 - random() % raw.size() / 2);
      else raw.append(1 + random() % 8, '\x3f');
      t->set_raw_data(raw);
      break;
    }
    case 2: t->add_float_data(InterestingFloat(random)); break;
    case 3: t->add_int64_data(InterestingInt(random)); break;
    case 4: {  // external data, always relative: the folder does not exist
      t->set_data_location(onnx::TensorProto::EXTERNAL);
      auto* entry = t->add_external_data();
      static const char* keys[] = {"location", "offset", "length", "checksum"};
      entry->set_key(keys[random() % 4]);
      entry->set_value(random() % 2 == 0 ? std::to_string(InterestingInt(random)) : "weights.bin");
      break;
    }
    default: t->clear_dims(); break;
  }
}

void MutateOpset(onnx::ModelProto* model, Random& random) {
  if (model->opset_import_size() == 0) model->add_opset_import();
  auto* opset = model->mutable_opset_import(0);
  if (random() % 4 == 0) {
    opset->set_domain(random() % 2 == 0 ? "com.microsoft" : "");
  } else {
    opset->set_version(random() % 4 == 0 ? InterestingInt(random) : static_cast<int64_t>(1 + random() % 19));
  }
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  Random random(seed);
  onnx::ModelProto model;
  if (random() % 8 == 0 || !model.ParseFromArray(data, static_cast<int>(size))) {
    return LLVMFuzzerMutate(data, size, max_size);
  }
  onnx::GraphProto* graph = model.mutable_graph();
  switch (random() % 10) {
    case 0: case 1: MutateDims(graph, random); break;
    case 2: case 3: case 4: case 5: MutateNode(graph, random); break;
    case 6: case 7: MutateInitializer(graph, random); break;
    case 8: MutateOpset(&model, random); break;
    default:  // rename a graph output, or drop one
      if (graph->output_size() > 0) {
        if (random() % 2 == 0) graph->mutable_output()->RemoveLast();
        else graph->mutable_output(0)->set_name(TensorNames(*graph)[random() % TensorNames(*graph).size()]);
      }
      break;
  }
  const std::string bytes = model.SerializeAsString();
  if (bytes.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}
