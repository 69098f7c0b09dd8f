// A check of a JPEG's Huffman tables before stb_image sees them.
//
// Debian's stb_image (v2.27) trusts a DHT segment's 16 code counts: a table
// declaring more than 256 codes writes past its 257-entry size list (found
// by the image fuzz target; later stb versions check it). Walking the
// marker segments and refusing such tables keeps that bug unreachable.
#pragma once

#include <string>

#include "glpool/status.h"

namespace glpool {

// Ok for anything that is not a JPEG (no SOI marker) and for a JPEG whose
// every DHT table lies within its segment and declares at most 256 codes;
// kInvalidArgument naming `label` otherwise.
Status CheckJpegHuffmanTables(const std::string& bytes, const std::string& label);

}  // namespace glpool
