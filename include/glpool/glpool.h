// The whole public API of glpool: include this, link glpool::glpool.
#pragma once

#include "glpool/context.h"
#include "glpool/diagnostics.h"
#include "glpool/files.h"
#include "glpool/tflite.h"
#include "glpool/gpu_info.h"
#include "glpool/layout.h"
#include "glpool/model.h"
#include "glpool/ops.h"
#include "glpool/options.h"
#include "glpool/report.h"
#include "glpool/session.h"
#include "glpool/status.h"
#include "glpool/tensor.h"
