// The face and selfie samples' engines: BlazeFace's anchors, decoding and
// weighted suppression on hand-made rows; then the real networks (npm
// @mediapipe packages, fetched by scripts/install-deps.sh) on photos that
// Debian's python3-skimage ships: one face found where a hand-drawn box
// says it is, none in photos without faces, and a person mask that covers
// the astronaut and leaves the background.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "glpool/context.h"
#include "glpool/files.h"
#include "samples/face_detector.h"
#include "samples/image_input.h"
#include "samples/npm_models.h"
#include "samples/selfie_segmenter.h"

namespace glpool {
namespace {

TEST(FaceAnchors, ShortAndFullRangeGridsInTheNetworksRowOrder) {
  const std::vector<Anchor> short_range = FaceAnchors(ShortRangeFaceConfig());
  ASSERT_EQ(short_range.size(), 896u);  // 16 x 16 x 2 + 8 x 8 x 6
  EXPECT_FLOAT_EQ(short_range[0].x, 0.5f / 16);
  EXPECT_FLOAT_EQ(short_range[1].x, 0.5f / 16);  // two anchors per cell at stride 8
  EXPECT_FLOAT_EQ(short_range[2].x, 1.5f / 16);
  EXPECT_FLOAT_EQ(short_range[32].y, 1.5f / 16);  // second row
  EXPECT_FLOAT_EQ(short_range[512].x, 0.5f / 8);  // stride 16 starts, six per cell
  EXPECT_FLOAT_EQ(short_range[517].x, 0.5f / 8);
  EXPECT_FLOAT_EQ(short_range[518].x, 1.5f / 8);
  const std::vector<Anchor> full_range = FaceAnchors(FullRangeFaceConfig());
  ASSERT_EQ(full_range.size(), 2304u);  // 48 x 48
  EXPECT_FLOAT_EQ(full_range[49].x, 1.5f / 48);
  EXPECT_FLOAT_EQ(full_range[49].y, 1.5f / 48);
}

TEST(FaceDecoding, ScoresThresholdAndOffsetsScaleByTheInputSize) {
  const FaceModelConfig config = ShortRangeFaceConfig();
  const std::vector<Anchor> anchors = {{0.25f, 0.5f}, {0.75f, 0.5f}};
  std::vector<float> regressors(32, 0.0f);
  regressors[0] = 12.8f;   // centre x: +0.1
  regressors[1] = -6.4f;   // centre y: -0.05
  regressors[2] = 32;      // width 0.25
  regressors[3] = 64;      // height 0.5
  regressors[4] = 25.6f;   // first keypoint x: +0.2
  regressors[16 + 2] = regressors[16 + 3] = 10;
  const std::vector<float> logits = {2.0f, -0.1f};  // sigmoid 0.88 and 0.475 (below 0.5)
  const std::vector<Face> faces = DecodeFaces(regressors, logits, anchors, config);
  ASSERT_EQ(faces.size(), 1u);
  EXPECT_NEAR(faces[0].x, 0.35f, 1e-6);
  EXPECT_NEAR(faces[0].y, 0.45f, 1e-6);
  EXPECT_NEAR(faces[0].width, 0.25f, 1e-6);
  EXPECT_NEAR(faces[0].height, 0.5f, 1e-6);
  EXPECT_NEAR(faces[0].keypoints[0][0], 0.45f, 1e-6);
  EXPECT_NEAR(faces[0].keypoints[0][1], 0.5f, 1e-6);
  EXPECT_NEAR(faces[0].score, 1 / (1 + std::exp(-2.0f)), 1e-6);
}

Face Box(float x, float y, float size, float score) {
  Face face;
  face.x = x;
  face.y = y;
  face.width = face.height = size;
  face.score = score;
  return face;
}

TEST(FaceSuppression, OverlappingFacesBlendByScoreAndDistantOnesStay) {
  // Two views of one face (IoU 0.82) and one far away.
  const std::vector<Face> kept =
      WeightedSuppression({Box(0.5f, 0.5f, 0.2f, 0.6f), Box(0.52f, 0.5f, 0.2f, 0.9f), Box(0.1f, 0.1f, 0.1f, 0.7f)},
                          0.3f);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_FLOAT_EQ(kept[0].score, 0.9f);  // the best's score
  EXPECT_NEAR(kept[0].x, (0.6f * 0.5f + 0.9f * 0.52f) / 1.5f, 1e-6);
  EXPECT_NEAR(kept[0].width, 0.2f, 1e-6);
  EXPECT_FLOAT_EQ(kept[1].x, 0.1f);
  EXPECT_EQ(WeightedSuppression({}, 0.3f).size(), 0u);
}

// Photos from Debian's python3-skimage (scripts/install-deps.sh installs it).
const char* const kSkimageData = "/usr/lib/python3/dist-packages/skimage/data";

RgbImage LoadPhoto(const std::string& name) {
  const std::string path = std::string(kSkimageData) + "/" + name;
  auto bytes = ReadWholeFile(path, "photo");
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString() << " (python3-skimage ships the test photos)";
  if (!bytes.ok()) return {};
  auto image = DecodeRgbImage(*bytes, path);
  EXPECT_TRUE(image.ok()) << image.status().ToString();
  return image.ok() ? *image : RgbImage{};
}

class MediaPipeSamples : public ::testing::Test {
 protected:
  void SetUp() override {
    auto context = Context::CreateHeadless();
    ASSERT_TRUE(context.ok()) << "no GLES 3.1 context: " << context.status().ToString();
    context_ = std::move(context).value();
  }
  std::unique_ptr<Context> context_;
};

float Iou(const ImageFace& a, float left, float top, float right, float bottom) {
  const float w = std::min(a.right, right) - std::max(a.left, left);
  const float h = std::min(a.bottom, bottom) - std::max(a.top, top);
  if (w <= 0 || h <= 0) return 0;
  const float both = w * h;
  return both / ((a.right - a.left) * (a.bottom - a.top) + (right - left) * (bottom - top) - both);
}

TEST_F(MediaPipeSamples, FaceFoundWhereDrawnByHandAndNoneWithoutFaces) {
  auto model = FindNpmModel("@mediapipe/face_detection/face_detection_short_range.tflite");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto detector = FaceDetector::Create(*model, ShortRangeFaceConfig());
  ASSERT_TRUE(detector.ok()) << detector.status().ToString();

  const RgbImage astronaut = LoadPhoto("astronaut.png");
  ASSERT_GT(astronaut.width, 0);
  auto faces = (*detector)->Detect(astronaut);
  ASSERT_TRUE(faces.ok()) << faces.status().ToString();
  ASSERT_EQ(faces->size(), 1u);
  // Eileen Collins' face, hairline to chin and ear to ear, written down by
  // looking at the 512 x 512 photo.
  const float iou = Iou((*faces)[0], 178, 70, 272, 185);
  EXPECT_GE(iou, 0.5f);
  RecordProperty("astronaut_iou", std::to_string(iou));
  // The eyes (keypoints 0 and 1) lie inside the box, above the mouth (3).
  const ImageFace& face = (*faces)[0];
  EXPECT_LT(face.keypoints[0][1], face.keypoints[3][1]);
  EXPECT_GT(face.keypoints[0][0], face.left);
  EXPECT_LT(face.keypoints[1][0], face.right);

  for (const char* photo : {"coffee.png", "chelsea.png", "motorcycle_left.png"}) {
    const RgbImage image = LoadPhoto(photo);
    ASSERT_GT(image.width, 0);
    auto none = (*detector)->Detect(image);
    ASSERT_TRUE(none.ok()) << none.status().ToString();
    EXPECT_EQ(none->size(), 0u) << photo << " has no face";
  }
}

float MeanOver(const PersonMask& mask, int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  double sum = 0;
  for (int64_t y = y0; y < y1; ++y) {
    for (int64_t x = x0; x < x1; ++x) sum += mask.at(x, y);
  }
  return static_cast<float>(sum / static_cast<double>((x1 - x0) * (y1 - y0)));
}

TEST_F(MediaPipeSamples, SelfieMaskCoversTheAstronautAndLeavesTheBackground) {
  auto model = FindNpmModel("@mediapipe/selfie_segmentation/selfie_segmentation.tflite");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  auto segmenter = SelfieSegmenter::Create(*model);
  ASSERT_TRUE(segmenter.ok()) << segmenter.status().ToString();
  const RgbImage astronaut = LoadPhoto("astronaut.png");
  ASSERT_GT(astronaut.width, 0);
  auto mask = (*segmenter)->Segment(astronaut);
  ASSERT_TRUE(mask.ok()) << mask.status().ToString();
  ASSERT_EQ(mask->width, 512);
  ASSERT_EQ(mask->height, 512);
  // Regions drawn by hand on the photo: her face and the suit's torso are
  // person; the flag (top left) and the wall by the shuttle model are not.
  const float face = MeanOver(*mask, 180, 60, 270, 170);
  const float torso = MeanOver(*mask, 120, 220, 270, 480);
  const float flag = MeanOver(*mask, 0, 0, 90, 200);
  const float wall = MeanOver(*mask, 320, 0, 512, 120);
  EXPECT_GE(face, 0.9f);
  EXPECT_GE(torso, 0.9f);
  EXPECT_LE(flag, 0.1f);
  EXPECT_LE(wall, 0.1f);
  RecordProperty("mask_means", std::to_string(face) + " " + std::to_string(torso) + " " + std::to_string(flag) + " " +
                                   std::to_string(wall));
}

}  // namespace
}  // namespace glpool
