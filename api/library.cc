// libglpool's own translation unit: the library's content comes from
// glpool_api and the internal static libraries, linked whole.
#include "glpool/glpool.h"
