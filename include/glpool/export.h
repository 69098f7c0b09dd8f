// GLPOOL_API marks what libglpool exports. The shared library is built with
// hidden visibility, so only declarations carrying this mark (and inline
// code in these headers) are reachable from an application.
#pragma once

#define GLPOOL_API [[gnu::visibility("default")]]
