// PHWC4 (documented in the public glpool/layout.h, where Phwc4Layout and
// LayoutOf are declared so applications can bind tensors zero-copy).
#pragma once

#include "glpool/layout.h"
#include "gpu_backend/graph/graph.h"
