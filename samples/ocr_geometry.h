// Plane geometry for text boxes: convex hull, minimum-area rectangle (DB's
// postprocess fits one to each text region, so tilted lines get tilted
// boxes) and the rectangle's corners in PaddleOCR's order.
#pragma once

#include <array>
#include <vector>

namespace glpool {

struct Point {
  double x = 0, y = 0;
};

// Corners: top-left, top-right, bottom-right, bottom-left (the order
// PaddleOCR's get_mini_boxes gives and its crop expects).
using Quad = std::array<Point, 4>;

// The convex hull, counter-clockwise in image axes (y down), collinear
// points dropped (Andrew's monotone chain). Fewer than 3 points come back
// as they are, duplicates removed.
std::vector<Point> ConvexHull(std::vector<Point> points);

struct RotatedRect {
  Point center;
  double width = 0, height = 0;  // along `axis` and across it
  Point axis{1, 0};              // unit vector of the width
};

// The smallest-area rectangle holding `hull` (one of its sides lies on a
// hull edge: each edge is tried). A hull of 1 or 2 points gives a
// rectangle of zero height.
RotatedRect MinAreaRect(const std::vector<Point>& hull);

// The rectangle grown by `distance` on every side.
RotatedRect Grown(const RotatedRect& rect, double distance);

// The corners, ordered as Quad says: of the two leftmost corners the upper
// is top-left, of the two rightmost the upper is top-right.
Quad Corners(const RotatedRect& rect);

// Whether `p` lies inside the convex quad or on its border.
bool InsideQuad(const Quad& quad, Point p);

double Distance(Point a, Point b);

}  // namespace glpool
