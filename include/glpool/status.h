// Status and StatusOr: how every fallible call in glpool reports failure,
// inside the library and across its public API alike.
//
// Nothing in the libraries throws, aborts or exits; errors travel up as a
// Status that gains context on the way (WithContext), so the message a user
// finally reads names the file, tensor, op or GL call and what went wrong.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "glpool/export.h"

namespace glpool {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad flags, bad records, bad user data, unknown tensor name
  kBadShape,         // a tensor's shape (or a bound object's size) does not fit the model
  kBadType,          // a tensor's dtype does not match the model's input
  kInvalidModel,     // the model file is corrupt or inconsistent
  kUnsupported,      // a valid model uses an op or dtype we do not run
  kNotFound,         // a file or named tensor is missing
  kOutOfMemory,      // GL or host allocation failed
  kGlError,          // a GL/EGL call failed
  kUnavailable,      // no usable context or device
  kContextLost,      // the GL context was lost (reset); the Session cannot run again
  kRemoved,          // a tensor whose memory was reused after its last reader (keep it to read it)
  kInternal,         // a broken invariant inside glpool
};

GLPOOL_API const char* StatusCodeName(StatusCode code);

class [[nodiscard]] GLPOOL_API Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with where the error was met: "loading x.onnx: ...".
  Status WithContext(const std::string& context) const;

  // "invalid model: loading x.onnx: ..."; "ok" for success.
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgumentError(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
inline Status BadShapeError(std::string m) { return {StatusCode::kBadShape, std::move(m)}; }
inline Status BadTypeError(std::string m) { return {StatusCode::kBadType, std::move(m)}; }
inline Status InvalidModelError(std::string m) { return {StatusCode::kInvalidModel, std::move(m)}; }
inline Status UnsupportedError(std::string m) { return {StatusCode::kUnsupported, std::move(m)}; }
inline Status NotFoundError(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
inline Status OutOfMemoryError(std::string m) { return {StatusCode::kOutOfMemory, std::move(m)}; }
inline Status GlError(std::string m) { return {StatusCode::kGlError, std::move(m)}; }
inline Status UnavailableError(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
inline Status ContextLostError(std::string m) { return {StatusCode::kContextLost, std::move(m)}; }
inline Status RemovedError(std::string m) { return {StatusCode::kRemoved, std::move(m)}; }
inline Status InternalError(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

// Holds either a value or the error that prevented computing it.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT
    if (status_.ok()) status_ = InternalError("StatusOr built from an ok Status without a value");
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  // Only valid when ok().
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace glpool

#define GLPOOL_CONCAT_INNER(a, b) a##b
#define GLPOOL_CONCAT(a, b) GLPOOL_CONCAT_INNER(a, b)

// Returns the Status of `expr` from the enclosing function if it failed.
#define GLPOOL_RETURN_IF_ERROR(expr)              \
  do {                                            \
    ::glpool::Status glpool_status_ = (expr);     \
    if (!glpool_status_.ok()) return glpool_status_; \
  } while (0)

// Same, with context prepended: GLPOOL_TRY_CONTEXT(Load(f), "loading " + f).
#define GLPOOL_TRY_CONTEXT(expr, context)                                  \
  do {                                                                     \
    ::glpool::Status glpool_status_ = (expr);                              \
    if (!glpool_status_.ok()) return glpool_status_.WithContext(context);  \
  } while (0)

// GLPOOL_ASSIGN_OR_RETURN(auto x, MakeX()); declares x or returns the error.
#define GLPOOL_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()
#define GLPOOL_ASSIGN_OR_RETURN(lhs, expr) \
  GLPOOL_ASSIGN_OR_RETURN_IMPL(GLPOOL_CONCAT(glpool_statusor_, __LINE__), lhs, expr)
