// TensorFlow Lite model (.tflite) -> the same Graph IR as ONNX import.
//
// The file is checked by the flatbuffers Verifier (glpool's schema subset,
// tflite_schema.fbs) and every tensor/buffer/opcode index is checked before
// anything is read; nothing in a hostile file can crash the reader. Import:
//  - maps each builtin op (and MediaPipe's Convolution2DTransposeBias) onto
//    the IR's ONNX ops (opset 14 forms), NHWC onto NCHW logical shapes with
//    weights permuted at import (see tflite_converter.h for the layout rule);
//  - expands float16 weights (behind DEQUANTIZE) and dequantizes int8/uint8
//    per-tensor and per-channel weights to float32 at import;
//  - refuses quantized activations (kUnsupported, naming the tensor or op);
//  - infers every IR shape with the ONNX importer's rules and checks it
//    against the shape the file states, so a mapping that disagrees with
//    the file is an error, not a silently different network.
// Errors name the file and the op ("op 12 (CONV_2D)") or tensor:
// kNotFound (no file), kInvalidModel (does not verify, bad indices, sizes
// that disagree), kUnsupported (ops, types, sparse or external buffers,
// several subgraphs). Graph inputs with rank 4 appear as NCHW ([1,3,H,W]
// for a [1,H,W,3] TFLite input); bind NHWC buffers through the Session API.
#pragma once

#include <string>

#include "common/status.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/import/onnx_import.h"

namespace glpool {

StatusOr<Graph> LoadTfliteModel(const std::string& path, const ImportOptions& options = {});
StatusOr<Graph> ImportTfliteModel(std::string bytes, const ImportOptions& options, const std::string& label);

// True when the bytes carry the .tflite file identifier.
bool IsTfliteBytes(const std::string& bytes);

// One line per operator: "<index> <NAME> v<version> inputs -> outputs",
// with shapes as the file states them (for `glpool inspect`).
StatusOr<std::string> DescribeTfliteModel(const std::string& bytes, const std::string& label);

}  // namespace glpool
