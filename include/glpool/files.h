// Whole-file reads with a size limit checked before anything is allocated.
//
// Public because apps reading their inputs want the same guard. Every
// file glpool reads (models, record files, tensors, images) comes
// through here, so `glpool run /dev/zero` or a 40 GB file named by mistake
// is a one-line error instead of a process that eats memory until it is
// killed. Only regular files are read: devices, FIFOs and directories are
// refused by name.
#pragma once

#include <cstdint>
#include <string>

#include "glpool/export.h"
#include "glpool/status.h"

namespace glpool {

// The default limit: protobuf's own ceiling for one message (2 GiB - 1).
inline constexpr uint64_t kMaxInputFileBytes = (uint64_t{1} << 31) - 1;

// Reads `path` whole. `what` names the file's role in messages ("model",
// "records"). kNotFound when it does not exist or cannot be opened;
// kInvalidArgument for a directory, a device or another non-regular file,
// and for a file larger than `max_bytes`.
GLPOOL_API StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what,
                                    uint64_t max_bytes = kMaxInputFileBytes);

}  // namespace glpool
