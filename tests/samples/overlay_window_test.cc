// The overlay window under an X display (Xvfb in CI): switch NAIVE -> AUTO
// through the combo boxes' path, then check the window's own pixels and
// the reported totals.
#include <gtest/gtest.h>

#include <cstdlib>

#include "samples/window_context.h"
#include "samples/overlay/overlay_session.h"
#include "samples/overlay/overlay_window.h"
#include "tests/samples/overlay_test_util.h"

namespace glpool {
namespace {

void ExpectWindowSwitch(testing::TestNetwork network) {
  // Never a skip: a missing display is a broken test setup.
  ASSERT_NE(std::getenv("DISPLAY"), nullptr)
      << "DISPLAY is not set: run under Xvfb (scripts/test.sh starts one and exports DISPLAY)";
  samples::WindowOptions options;
  options.width = 1100;
  options.height = 750;
  options.title = "glpool overlay test";
  auto context = samples::WindowContext::Create(options);
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  auto session = overlay::OverlaySession::Create(network.title, std::move(network.model), network.input_shapes,
                                                 std::move(network.inputs),
                                                 {ObjectKind::kBuffers, Precision::kFp32, "naive"});
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  auto window = overlay::OverlayWindow::Create(**context, **session);
  ASSERT_TRUE(window.ok()) << window.status().ToString();

  overlay::FrameReport naive;
  for (int frame = 0; frame < 3; ++frame) {
    auto report = (*window)->RenderFrame();
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    naive = *report;
    (*window)->Present();
  }
  EXPECT_EQ(naive.totals.strategy, "naive");
  EXPECT_EQ(naive.totals.pool_bytes, naive.totals.naive_bytes);

  overlay::Selection automatic = (*session)->selection();
  automatic.strategy = "auto";
  (*window)->Request(automatic);
  overlay::FrameReport after;
  std::vector<uint8_t> pixels;
  for (int frame = 0; frame < 3; ++frame) {
    auto report = (*window)->RenderFrame();
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    after = *report;
    auto read = (*window)->ReadBackBuffer();
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    pixels = std::move(read).value();
    (*window)->Present();
  }
  EXPECT_TRUE((*session)->last_error().empty()) << (*session)->last_error();
  EXPECT_EQ(after.totals.strategy, "auto");
  EXPECT_LT(after.totals.pool_bytes, naive.totals.pool_bytes) << "AUTO did not shrink the pool";
  EXPECT_EQ(after.boxes_drawn, (*session)->session().tensors().size());

  const int width = (*window)->framebuffer_width();
  const int height = (*window)->framebuffer_height();
  ASSERT_EQ(pixels.size(), static_cast<size_t>(width) * height * 4);
  const uint8_t map_background[3] = {30, 32, 40};
  const size_t drawn = testing::PixelsUnlike(pixels, width, static_cast<int>(after.map_x0),
                                             static_cast<int>(after.map_y0), static_cast<int>(after.map_x1),
                                             static_cast<int>(after.map_y1), map_background);
  const size_t area = static_cast<size_t>((after.map_x1 - after.map_x0) * (after.map_y1 - after.map_y0));
  EXPECT_GT(drawn, area / 20) << "the memory map region is (nearly) empty in the window's pixels";
  std::cout << "window: pool " << naive.totals.pool_bytes << " (naive) -> " << after.totals.pool_bytes << " ("
            << after.totals.chosen << "), map pixels drawn " << drawn << " of " << area << "\n";
}

TEST(OverlayWindow, DemoNetworkNaiveToAuto) {
  auto network = testing::DemoTestNetwork();
  ASSERT_TRUE(network.ok()) << network.status().ToString();
  ExpectWindowSwitch(std::move(*network));
}

TEST(OverlayWindow, U2netpNaiveToAuto) {
  auto network = testing::U2netpTestNetwork();
  ASSERT_TRUE(network.ok()) << network.status().ToString();
  ExpectWindowSwitch(std::move(network).value());
}

}  // namespace
}  // namespace glpool
