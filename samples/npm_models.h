// Where samples find trained networks shipped in npm packages (MediaPipe's
// .tflite files, PaddleOCR's ONNX models): the cache that
// scripts/install-deps.sh (through scripts/fetch-models.sh) fills.
#pragma once

#include <string>

#include "glpool/status.h"

namespace glpool {

// $GLPOOL_CACHE, defaulting to ~/.cache/glpool (as scripts/fetch-models.sh):
// the npm packages, and the references scripts generate from them.
std::string GlpoolCacheDir();
// GlpoolCacheDir()/npm/node_modules.
std::string NpmPackagesDir();

// `file` (e.g. "@mediapipe/face_detection/face_detection_short_range.tflite")
// under NpmPackagesDir(); kNotFound naming the path and saying that
// `bash scripts/install-deps.sh` fetches it.
StatusOr<std::string> FindNpmModel(const std::string& file);

}  // namespace glpool
