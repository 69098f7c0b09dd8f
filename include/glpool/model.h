// Model: a network loaded from an ONNX file or from memory, with its inputs
// and outputs as the file declares them (a later TFLite import plugs in
// here too). A Model holds no GL state and may be shared by Sessions;
// copies are cheap and share the parsed file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "glpool/export.h"
#include "glpool/status.h"
#include "glpool/tensor.h"

namespace glpool {

// One dimension: a fixed size, or a symbol ("batch", "height") that a
// Session fixes through SessionOptions::input_shapes or Reshape().
struct Dim {
  int64_t value = -1;   // >= 0 when fixed
  std::string symbol;   // the model's name for a symbolic dim ("" if it gave none)
  bool fixed() const { return value >= 0; }
};

struct GLPOOL_API TensorInfo {
  std::string name;
  DataType dtype = DataType::kUndefined;
  std::vector<Dim> dims;
  bool is_static() const;   // every dim fixed
  Shape shape() const;      // the fixed dims; -1 where symbolic
};

struct ModelOptions {
  // Fill weights whose external data file is missing with a deterministic
  // pattern instead of failing with kNotFound (graph-only model files).
  bool random_weights = false;
  // Run the default graph passes (BatchNorm folding, activation fusion,
  // free reshapes). Off only to study the unfused graph.
  bool run_graph_passes = true;
  // External data (weights in files beside the model) is read only from
  // inside this folder, symlinks followed; empty: the model's own folder.
  // A location that is absolute or leaves the folder is kInvalidModel
  // naming the tensor, so a downloaded model cannot read other files.
  std::string external_data_root;
};

class GLPOOL_API Model {
 public:
  // kNotFound (no file), kInvalidModel (not an ONNX protobuf).
  static StatusOr<Model> Load(const std::string& path, const ModelOptions& options = {});
  // The bytes of an .onnx file; external data files are looked up in
  // `model_dir`. `label` names the model in messages.
  static StatusOr<Model> FromMemory(const void* data, size_t size, const ModelOptions& options = {},
                                    const std::string& model_dir = ".", const std::string& label = "<memory>");

  const std::string& label() const;                 // the path, or the label given
  const std::vector<TensorInfo>& inputs() const;    // graph inputs that are not weights
  const std::vector<TensorInfo>& outputs() const;
  const ModelOptions& options() const;

  struct Impl;  // defined inside the library
  const Impl& impl() const { return *impl_; }

 private:
  explicit Model(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

// `input`'s dims as the --input-shape form spells them, with the model's
// own names where a dim is symbolic: "x=batchx3xheightxwidth" ("?" for a
// symbolic dim the model left unnamed).
GLPOOL_API std::string InputShapeTemplate(const TensorInfo& input);

// Each model input's shape for a run on `inputs`: a given tensor's own shape
// (its rank and fixed dims checked against the model: kBadShape otherwise),
// else the model's static shape. Exported models leave batch, height and
// width symbolic; this takes them from the data, for
// SessionOptions::input_shapes or Session::Reshape. An input left out whose
// dims are symbolic is kBadShape naming each such dim.
GLPOOL_API StatusOr<std::map<std::string, Shape>> InputShapesOf(const Model& model,
                                                                const std::map<std::string, TensorData>& inputs);

}  // namespace glpool
