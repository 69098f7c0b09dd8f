// Declared in the public glpool/files.h (one definition for the library
// and its users); internal code keeps including this path.
#pragma once

#include "glpool/files.h"
