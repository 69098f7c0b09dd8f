// App-owned GL objects bound to graph inputs and outputs (session.h states
// the contract): checking that an object fits a tensor, and moving data
// between it and the tensor's own object with shaders/io_convert.comp.
#pragma once

#include <string>

#include "glpool/session.h"
#include "gpu_backend/runtime/executor.h"
#include "gpu_backend/runtime/program_cache.h"

namespace glpool {

// Whether `object` can be the tensor's object itself: a PHWC4 fp32 buffer
// for a tensor stored in an fp32 buffer.
bool IsZeroCopy(const GpuObject& object, const ExternalTensor& tensor);

// Checks the app's object: it exists, is of the layout's kind, and its size
// (and, for textures, format and immutability) fits `shape`. Errors name
// `tensor`: kInvalidArgument for a wrong kind, kBadShape for sizes.
Status CheckGpuObject(const std::string& tensor, const GpuObject& object, const Shape& shape,
                      const ExternalTensor& external);

// One dispatch of the conversion kernel: app object -> tensor object when
// `into_tensor`, else tensor object -> app object. No barrier here.
Status ConvertGpuObject(ProgramCache& programs, const GpuObject& object, const ExternalTensor& tensor,
                        bool into_tensor);

}  // namespace glpool
