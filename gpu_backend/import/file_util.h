// Small file helpers for the importer: whole-file reads that report a
// missing or unreadable file as a Status, path joins, and a protobuf parse
// that accepts messages up to 2 GiB and never lets an exception escape.
#pragma once

#include <google/protobuf/message_lite.h>

#include <string>

#include "common/status.h"

namespace glpool {

// common/file_read.h's ReadWholeFile for a file in the ONNX format ("model"
// or "tensor" in messages): kNotFound when it cannot be opened, an error for
// directories, devices and files past protobuf's 2 GiB message limit.
StatusOr<std::string> ReadFileBytes(const std::string& path, const std::string& what = "file");

// "dir/file" -> "dir"; "file" -> ".".
std::string DirName(const std::string& path);

// Parses `bytes` into `message`; false on any malformed or truncated input.
bool ParseProto(const std::string& bytes, google::protobuf::MessageLite* message);

}  // namespace glpool
