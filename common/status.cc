#include "common/status.h"

namespace glpool {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kBadShape: return "bad shape";
    case StatusCode::kBadType: return "bad type";
    case StatusCode::kInvalidModel: return "invalid model";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kOutOfMemory: return "out of memory";
    case StatusCode::kGlError: return "GL error";
    case StatusCode::kUnavailable: return "unavailable";
    case StatusCode::kContextLost: return "context lost";
    case StatusCode::kRemoved: return "removed";
    case StatusCode::kInternal: return "internal error";
  }
  return "unknown";
}

Status Status::WithContext(const std::string& context) const {
  if (ok()) return *this;
  return Status(code_, context + ": " + message_);
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

}  // namespace glpool
