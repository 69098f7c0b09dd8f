// The Status type lives in the public header (one definition for the
// library and its users); internal code keeps including this path.
#pragma once

#include "glpool/status.h"
