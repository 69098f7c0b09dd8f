// Where the executor keeps a tensor (a GL object, and in the arena a byte
// range) and the span of bytes one binding touches: the executor decides
// single-shader exclusivity and memory barriers on spans.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu_backend/gl/gl_buffer.h"
#include "gpu_backend/graph/graph.h"
#include "gpu_backend/runtime/shader_assembly.h"

namespace glpool {

// Where a tensor's texels live: a GL object (by index into the executor's
// objects) and, in the arena, the byte range.
struct Location {
  StorageKind storage = StorageKind::kBuffer;
  size_t gl_object = 0;  // index into State::buffers or State::textures
  uint64_t offset = 0;
  uint64_t size = 0;     // bytes bound (buffers)
  int pool_object = -1;  // index into State::pool, -1 for external objects
  GLuint borrowed = 0;   // a caller's buffer bound instead (Executor::BorrowBuffer)
  bool arena = false;    // a range of an arena buffer: [offset, offset + size)
};

// The bytes of one GL object a binding touches. Textures and whole buffers
// span everything; arena tensors their planned range. Exclusivity and
// barriers are decided on spans, so two disjoint arena ranges may be bound
// together (they are distinct tensors), while any overlap is caught.
struct Span {
  int storage_class = 0;  // 0 buffers, 1 textures: separate name spaces
  size_t gl_object = 0;
  uint64_t begin = 0;
  uint64_t end = UINT64_MAX;

  bool Overlaps(const Span& o) const {
    return storage_class == o.storage_class && gl_object == o.gl_object && begin < o.end && o.begin < end;
  }
};

inline Span SpanOf(const Location& location) {
  Span span;
  span.storage_class = location.storage == StorageKind::kBuffer ? 0 : 1;
  span.gl_object = location.gl_object;
  if (location.arena) {
    span.begin = location.offset;
    span.end = location.offset + location.size;
  }
  return span;
}

inline bool AnyOverlap(const std::vector<Span>& spans, const Span& span) {
  for (const Span& other : spans) {
    if (other.Overlaps(span)) return true;
  }
  return false;
}

}  // namespace glpool
