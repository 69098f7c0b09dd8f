// The image preprocessing flags `glpool run` and `glpool ocr` share, and
// the labels file classifiers print names from.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "samples/image_preprocess.h"

namespace glpool {

struct ImageFlags {
  std::string resize = "stretch";
  std::string mean;  // "0.485,0.456,0.406"; empty: 0
  std::string std;   // empty: 1
  std::string channels = "rgb";
};

// --resize, --mean, --std, --channels (see image_preprocess.h).
void AddImageFlags(CLI::App& command, ImageFlags& flags);
StatusOr<ImagePreprocess> ImagePreprocessFromFlags(const ImageFlags& flags);

// One label per line (class 0 first); kNotFound / kInvalidArgument naming
// the file when it cannot be read or holds no line.
StatusOr<std::vector<std::string>> ReadLabels(const std::string& path);

}  // namespace glpool
