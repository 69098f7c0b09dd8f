#include "samples/jpeg_check.h"

#include <cstdint>

namespace glpool {
namespace {

constexpr int kSoi = 0xD8, kEoi = 0xD9, kSos = 0xDA, kDht = 0xC4;

bool IsStandalone(int marker) { return marker == 0x01 || (marker >= 0xD0 && marker <= 0xD9); }

// The tables of one DHT segment: class/id byte, 16 counts, then as many
// symbols as the counts add up to. stb reads a whole table whenever any of
// the segment's length is left (even past the segment, into what follows)
// and zeros past the end of the file, so this reads the same way: bytes up
// to `available`, zeros after.
bool HuffmanTablesFit(const uint8_t* p, size_t length, size_t available) {
  auto byte = [&](size_t i) -> size_t { return i < available ? p[i] : 0; };
  size_t at = 0;
  while (at < length) {
    size_t codes = 0;
    for (size_t i = 1; i <= 16; ++i) codes += byte(at + i);
    if (codes > 256) return false;
    at += 17 + codes;
  }
  return true;
}

}  // namespace

Status CheckJpegHuffmanTables(const std::string& bytes, const std::string& label) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  // SOI as stb finds it: 0xFF, any fill 0xFF bytes, then 0xD8.
  size_t at = 0;
  if (n == 0 || p[0] != 0xFF) return Status::Ok();
  while (at < n && p[at] == 0xFF) ++at;
  if (at >= n || p[at] != kSoi) return Status::Ok();
  ++at;
  const Status corrupt = InvalidArgumentError("reading image " + label + ": corrupt JPEG (a Huffman table " +
                                              "declares more codes than it holds or than 256)");
  while (at < n) {
    // Next marker: 0xFF (fill bytes allowed) then a code; inside a scan's
    // entropy data 0xFF 0x00 is a stuffed byte and RSTn markers continue it.
    if (p[at] != 0xFF) {
      ++at;
      continue;
    }
    while (at < n && p[at] == 0xFF) ++at;
    if (at >= n) break;
    const int marker = p[at++];
    if (marker == 0x00 || IsStandalone(marker)) {
      if (marker == kEoi) break;
      continue;
    }
    if (n - at < 2) break;
    const size_t length = (static_cast<size_t>(p[at]) << 8) | p[at + 1];
    if (length < 2) break;
    if (marker == kDht && !HuffmanTablesFit(p + at + 2, length - 2, n - at - 2)) return corrupt;
    if (length > n - at) break;
    at += length;
    (void)kSos;  // entropy data after SOS is skipped byte by byte above
  }
  return Status::Ok();
}

}  // namespace glpool
