// TensorFlow Lite files: what `glpool inspect` shows. Loading a .tflite
// model goes through Model::Load like any other; this header only lists a
// file's contents.
#pragma once

#include <string>

#include "glpool/export.h"
#include "glpool/status.h"

namespace glpool {

// One line per operator of a .tflite file, in execution order:
// "<index> <OP_NAME> v<version>  in:shape[, ...] -> out:shape", custom ops
// by their custom code; constants marked "(const)". The file is verified
// first (kInvalidModel naming it when it is not a valid .tflite file).
GLPOOL_API StatusOr<std::string> DescribeTfliteFile(const std::string& path);

}  // namespace glpool
