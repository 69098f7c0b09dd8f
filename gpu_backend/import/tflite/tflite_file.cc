#include "gpu_backend/import/tflite/tflite_file.h"

#include <algorithm>

namespace glpool {
namespace {

// Bounds for the Verifier: nesting depth and table count well above any
// real model, low enough that a hostile file cannot make verification slow.
constexpr flatbuffers::uoffset_t kMaxDepth = 64;
constexpr flatbuffers::uoffset_t kMaxTables = 10'000'000;

Status CheckIndexList(const flatbuffers::Vector<int32_t>* list, int tensor_count, bool allow_omitted,
                      const std::string& what) {
  if (list == nullptr) return Status::Ok();
  for (flatbuffers::uoffset_t i = 0; i < list->size(); ++i) {
    const int32_t index = list->Get(i);
    if (index == -1 && allow_omitted) continue;
    if (index < 0 || index >= tensor_count) {
      return InvalidModelError(what + " names tensor " + std::to_string(index) + ", but the subgraph has " +
                               std::to_string(tensor_count) + " tensors");
    }
  }
  return Status::Ok();
}

}  // namespace

bool LooksLikeTflite(const std::string& bytes) {
  return bytes.size() >= 8 && flatbuffers::BufferHasIdentifier(bytes.data(), tfl::ModelIdentifier());
}

StatusOr<std::unique_ptr<TfliteFile>> TfliteFile::Open(std::string bytes, std::string label) {
  std::unique_ptr<TfliteFile> file(new TfliteFile());
  file->bytes_ = std::move(bytes);
  file->label_ = std::move(label);
  const std::string& data = file->bytes_;
  if (!LooksLikeTflite(data)) {
    return InvalidModelError(file->label_ + ": not a TensorFlow Lite model (no \"TFL3\" file identifier)");
  }
  // flatbuffers offsets are 32-bit: a larger file cannot be valid.
  if (data.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return UnsupportedError(file->label_ + ": " + std::to_string(data.size()) +
                            " bytes; a .tflite flatbuffer holds under 2 GiB");
  }
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(data.data()), data.size(), kMaxDepth, kMaxTables);
  if (!tfl::VerifyModelBuffer(verifier)) {
    return InvalidModelError(file->label_ +
                             ": the TensorFlow Lite flatbuffer does not verify (corrupt or truncated file?)");
  }
  file->model_ = tfl::GetModel(data.data());
  const auto* subgraphs = file->model_->subgraphs();
  if (subgraphs == nullptr || subgraphs->size() == 0) {
    return InvalidModelError(file->label_ + ": the model has no subgraph");
  }
  if (subgraphs->size() > 1) {
    return UnsupportedError(file->label_ + ": the model has " + std::to_string(subgraphs->size()) +
                            " subgraphs (control flow); glpool reads single-subgraph models");
  }
  file->subgraph_ = subgraphs->Get(0);
  if (file->subgraph_->tensors() == nullptr) return InvalidModelError(file->label_ + ": the subgraph has no tensors");
  Status checked = file->CheckIndices();
  if (!checked.ok()) return checked.WithContext(file->label_);
  return file;
}

Status TfliteFile::CheckIndices() const {
  const int tensors = tensor_count();
  const auto* buffers = model_->buffers();
  const uint32_t buffer_count = buffers == nullptr ? 0 : buffers->size();
  for (int i = 0; i < tensors; ++i) {
    const tfl::Tensor& t = tensor(i);
    // Buffer 0 is the conventional empty buffer; a model without a buffer
    // table may still have tensors that all point at it.
    if (t.buffer() != 0 && t.buffer() >= buffer_count) {
      return InvalidModelError("tensor '" + tensor_name(i) + "' names buffer " + std::to_string(t.buffer()) +
                               ", but the model has " + std::to_string(buffer_count) + " buffers");
    }
    if (t.buffer() < buffer_count) {
      const tfl::Buffer* buffer = buffers->Get(t.buffer());
      if (buffer != nullptr && (buffer->offset() != 0 || buffer->size() != 0)) {
        return UnsupportedError("tensor '" + tensor_name(i) +
                                "' keeps its data outside the flatbuffer (offset/size buffers of 2 GB models)");
      }
    }
  }
  GLPOOL_RETURN_IF_ERROR(CheckIndexList(subgraph_->inputs(), tensors, false, "the subgraph's inputs list"));
  GLPOOL_RETURN_IF_ERROR(CheckIndexList(subgraph_->outputs(), tensors, false, "the subgraph's outputs list"));
  const auto* codes = model_->operator_codes();
  const uint32_t code_count = codes == nullptr ? 0 : codes->size();
  for (int i = 0; i < operator_count(); ++i) {
    const tfl::Operator* o = subgraph_->operators()->Get(i);
    if (o->opcode_index() >= code_count) {
      return InvalidModelError("op " + std::to_string(i) + " names operator code " +
                               std::to_string(o->opcode_index()) + ", but the model has " +
                               std::to_string(code_count));
    }
    const std::string where = op_label(i);
    GLPOOL_RETURN_IF_ERROR(CheckIndexList(o->inputs(), tensors, true, where + "'s inputs list"));
    GLPOOL_RETURN_IF_ERROR(CheckIndexList(o->outputs(), tensors, false, where + "'s outputs list"));
  }
  return Status::Ok();
}

int TfliteFile::operator_count() const {
  return subgraph_->operators() == nullptr ? 0 : static_cast<int>(subgraph_->operators()->size());
}

const flatbuffers::Vector<uint8_t>* TfliteFile::buffer_data(const tfl::Tensor& t) const {
  const auto* buffers = model_->buffers();
  if (buffers == nullptr || t.buffer() >= buffers->size()) return nullptr;
  const tfl::Buffer* buffer = buffers->Get(t.buffer());
  return buffer == nullptr ? nullptr : buffer->data();
}

int TfliteFile::builtin_code(const tfl::Operator& o) const {
  const tfl::OperatorCode* code = model_->operator_codes()->Get(o.opcode_index());
  if (code == nullptr) return -1;
  // Codes past 127 live only in the int field; older files only fill the byte.
  return std::max<int>(code->deprecated_builtin_code(), code->builtin_code());
}

std::string TfliteFile::op_name(const tfl::Operator& o) const {
  const int code = builtin_code(o);
  if (code == static_cast<int>(TfliteOp::kCustom)) {
    const tfl::OperatorCode* c = model_->operator_codes()->Get(o.opcode_index());
    return c->custom_code() == nullptr ? std::string("CUSTOM") : c->custom_code()->str();
  }
  return TfliteBuiltinName(code);
}

int TfliteFile::op_version(const tfl::Operator& o) const {
  const tfl::OperatorCode* code = model_->operator_codes()->Get(o.opcode_index());
  return code == nullptr ? 1 : code->version();
}

std::string TfliteFile::op_label(int index) const {
  std::string label = "op " + std::to_string(index);
  if (index >= 0 && index < operator_count()) {
    const tfl::Operator* o = subgraph_->operators()->Get(index);
    if (o != nullptr && model_->operator_codes() != nullptr && o->opcode_index() < model_->operator_codes()->size()) {
      label += " (" + op_name(*o) + ")";
    }
  }
  return label;
}

std::string TfliteFile::tensor_name(int index) const {
  const tfl::Tensor& t = tensor(index);
  if (t.name() == nullptr || t.name()->size() == 0) return "#" + std::to_string(index);
  return t.name()->str();
}

}  // namespace glpool
