// The headless overlay: rendered to a PNG, checked from the report the
// renderer returns (one map box per pooled tensor) and from the file.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "glpool/context.h"
#include "samples/gl_check.h"
#include "samples/overlay/overlay_png.h"
#include "samples/overlay/overlay_session.h"
#include "tests/samples/overlay_test_util.h"

namespace glpool {
namespace {

// Shared objects stack down the map as bands as tall as their bytes: each
// band's pixel height is its share of the map's height, within a pixel, so
// the pool's sizes are seen. (The arena's y is its offsets instead.)
void ExpectBandsProportionalToBytes(const overlay::FrameReport& frame, bool arena) {
  if (arena) {
    EXPECT_TRUE(frame.row_heights.empty());
    return;
  }
  ASSERT_EQ(frame.row_heights.size(), frame.pool_rows);
  ASSERT_EQ(frame.row_bytes.size(), frame.pool_rows);
  double total_bytes = 0;
  for (uint64_t bytes : frame.row_bytes) total_bytes += static_cast<double>(bytes);
  ASSERT_GT(total_bytes, 0);
  const double map_height = frame.map_y1 - frame.map_y0;
  double stacked = 0;
  for (size_t i = 0; i < frame.row_heights.size(); ++i) {
    const double expected = map_height * static_cast<double>(frame.row_bytes[i]) / total_bytes;
    EXPECT_NEAR(frame.row_heights[i], expected, 1.0) << "object " << i << " of " << frame.row_bytes[i] << " bytes";
    stacked += frame.row_heights[i];
  }
  EXPECT_NEAR(stacked, map_height, 1.0);
  // And not all the same: the test networks' objects differ in size.
  const auto [smallest, largest] = std::minmax_element(frame.row_heights.begin(), frame.row_heights.end());
  if (frame.row_heights.size() > 1) {
    EXPECT_LT(*smallest, *largest);
  }
}

void ExpectPngOverlay(testing::TestNetwork network, const overlay::Selection& selection, const std::string& file,
                      overlay::FrameReport* frame = nullptr, std::vector<overlay::PoolRow>* rows = nullptr) {
  auto context = Context::CreateHeadless();
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  ASSERT_TRUE(samples::LoadGl().ok());
  auto session = overlay::OverlaySession::Create(network.title, std::move(network.model), network.input_shapes,
                                                 std::move(network.inputs), selection);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  const std::string path = (std::filesystem::temp_directory_path() / file).string();
  std::filesystem::remove(path);
  constexpr int kWidth = 1024, kHeight = 700;
  auto report = overlay::RenderOverlayPng(**session, path, kWidth, kHeight);
  ASSERT_TRUE(report.ok()) << report.status().ToString();

  // One box per pooled tensor, each tensor exactly once.
  const size_t pooled = (*session)->session().tensors().size();
  ASSERT_GT(pooled, 0u);
  EXPECT_EQ(report->frame.boxes_drawn, pooled);
  EXPECT_EQ(std::set<size_t>(report->frame.box_tensors.begin(), report->frame.box_tensors.end()).size(), pooled);
  EXPECT_EQ(report->frame.pool_rows, (*session)->session().objects().size());
  EXPECT_EQ(report->frame.totals.pool_bytes, (*session)->session().memory().pool_bytes);
  ExpectBandsProportionalToBytes(report->frame, selection.objects == ObjectKind::kArena);

  int width = 0, height = 0, channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &width, &height, &channels, 4);
  ASSERT_NE(pixels, nullptr) << "cannot decode " << path;
  std::vector<uint8_t> rgba(pixels, pixels + static_cast<size_t>(width) * height * 4);
  stbi_image_free(pixels);
  EXPECT_EQ(width, kWidth);
  EXPECT_EQ(height, kHeight);
  EXPECT_GT(testing::DistinctColors(rgba), 16u) << "the PNG is (nearly) one colour";
  // The map region holds the boxes, not just its background.
  const uint8_t map_background[3] = {30, 32, 40};
  EXPECT_GT(testing::PixelsUnlike(rgba, width, static_cast<int>(report->frame.map_x0),
                                  static_cast<int>(report->frame.map_y0), static_cast<int>(report->frame.map_x1),
                                  static_cast<int>(report->frame.map_y1), map_background),
            100u);
  if (frame != nullptr) *frame = report->frame;
  if (rows != nullptr) *rows = (*session)->model().rows;
  std::cout << "overlay PNG: " << path << " (" << report->frame.boxes_drawn << " boxes, pool "
            << report->frame.totals.pool_bytes << " of naive " << report->frame.totals.naive_bytes << " bytes)\n";
}

TEST(OverlayPng, DemoNetworkBuffers) {
  auto network = testing::DemoTestNetwork();
  ASSERT_TRUE(network.ok()) << network.status().ToString();
  ExpectPngOverlay(std::move(*network), {ObjectKind::kBuffers, Precision::kFp32, "auto"}, "glpool_demo_buffers.png");
}

TEST(OverlayPng, DemoNetworkTexturesFp16) {
  auto network = testing::DemoTestNetwork();
  ASSERT_TRUE(network.ok()) << network.status().ToString();
  ExpectPngOverlay(std::move(*network), {ObjectKind::kTextures, Precision::kFp16, "auto"},
                   "glpool_demo_textures.png");
}

TEST(OverlayPng, DemoNetworkArena) {
  auto network = testing::DemoTestNetwork();
  ASSERT_TRUE(network.ok()) << network.status().ToString();
  ExpectPngOverlay(std::move(*network), {ObjectKind::kArena, Precision::kFp32, "auto"}, "glpool_demo_arena.png");
}

TEST(OverlayPng, DemoNetworkDynamicDrawsTheLiveBytesCurve) {
  auto network = testing::DemoTestNetwork();
  ASSERT_TRUE(network.ok()) << network.status().ToString();
  overlay::FrameReport frame;
  ExpectPngOverlay(std::move(*network), {ObjectKind::kBuffers, Precision::kFp32, "auto", MemoryMode::kDynamic, {}},
                   "glpool_demo_dynamic.png", &frame);
  EXPECT_EQ(frame.totals.memory_mode, "dynamic");
  EXPECT_GT(frame.live_curve_points, 1u);
  EXPECT_LT(frame.totals.peak_live_bytes, frame.totals.naive_bytes);
}

TEST(OverlayPng, DemoNetworkNamedPoolsAreSeparateBands) {
  auto network = testing::DemoTestNetwork();
  ASSERT_TRUE(network.ok()) << network.status().ToString();
  overlay::Selection selection{ObjectKind::kBuffers, Precision::kFp32, "auto", MemoryMode::kPooled, {}};
  selection.pools = {{"adds", {}, {"Add"}, {}, ObjectKind::kArena, Precision::kFp32, "auto"}};
  overlay::FrameReport frame;
  std::vector<overlay::PoolRow> rows;
  ExpectPngOverlay(std::move(*network), selection, "glpool_demo_pools.png", &frame, &rows);
  EXPECT_EQ(frame.totals.pools, 2u);
  size_t bands = 0;
  for (const overlay::PoolRow& row : rows) {
    bands += row.first_of_pool ? 1 : 0;
    EXPECT_EQ(row.kind == "arena", row.pool == "adds, arena") << row.pool;
  }
  EXPECT_EQ(bands, 2u);
}

TEST(OverlayPng, U2netp) {
  auto network = testing::U2netpTestNetwork();
  ASSERT_TRUE(network.ok()) << network.status().ToString();
  ExpectPngOverlay(std::move(network).value(), {ObjectKind::kBuffers, Precision::kFp32, "auto"}, "glpool_u2netp.png");
}

}  // namespace
}  // namespace glpool
