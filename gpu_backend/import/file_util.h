// Small file helpers for the importer: whole-file reads that report a
// missing or unreadable file as a Status, path joins, and a protobuf parse
// that accepts messages up to 2 GiB and never lets an exception escape.
#pragma once

#include <google/protobuf/message_lite.h>

#include <string>

#include "common/status.h"

namespace glpool {

// kNotFound when the file cannot be opened.
StatusOr<std::string> ReadFileBytes(const std::string& path);

// "dir/file" -> "dir"; "file" -> ".".
std::string DirName(const std::string& path);

// Joins `name` to `dir` unless `name` is absolute.
std::string JoinPath(const std::string& dir, const std::string& name);

// Parses `bytes` into `message`; false on any malformed or truncated input.
bool ParseProto(const std::string& bytes, google::protobuf::MessageLite* message);

}  // namespace glpool
