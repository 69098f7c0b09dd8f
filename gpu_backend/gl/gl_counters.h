// Process-wide counters behind glpool/diagnostics.h: shader compiles,
// program binaries restored, pool plans, reads of GL memory into CPU memory
// and GL objects created/deleted; and the injected GL faults the RAII
// wrappers consult. Relaxed atomics: counts, not synchronisation.
#pragma once

#include "glpool/diagnostics.h"

namespace glpool::gl {

void CountShaderCompile();
void CountProgramBinaryLoad();
void CountPoolPlan();
void CountGpuRead();
void CountGlObjectCreated();
void CountGlObjectDeleted();
// True (once) when an injected `fault` is due at this call.
bool InjectedFaultDue(GlFault fault);

}  // namespace glpool::gl
