#include "samples/ocr_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace glpool {
namespace {

double Cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

}  // namespace

std::vector<Point> ConvexHull(std::vector<Point> points) {
  std::sort(points.begin(), points.end(), [](Point a, Point b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
  points.erase(std::unique(points.begin(), points.end(), [](Point a, Point b) { return a.x == b.x && a.y == b.y; }),
               points.end());
  if (points.size() < 3) return points;
  std::vector<Point> hull(2 * points.size());
  size_t k = 0;
  for (const Point& p : points) {  // lower chain
    while (k >= 2 && Cross(hull[k - 2], hull[k - 1], p) <= 0) --k;
    hull[k++] = p;
  }
  for (size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {  // upper chain
    while (k >= lower && Cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);  // the last point repeats the first
  return hull;
}

RotatedRect MinAreaRect(const std::vector<Point>& hull) {
  RotatedRect best;
  if (hull.empty()) return best;
  double best_area = std::numeric_limits<double>::infinity();
  const size_t n = hull.size();
  for (size_t i = 0; i < n; ++i) {
    const Point a = hull[i], b = hull[(i + 1) % n];
    const double length = Distance(a, b);
    // One point (or a repeated one) gives no edge: the axes stay x and y.
    const Point u = length > 0 ? Point{(b.x - a.x) / length, (b.y - a.y) / length} : Point{1, 0};
    const Point v{-u.y, u.x};
    double min_u = std::numeric_limits<double>::infinity(), max_u = -min_u, min_v = min_u, max_v = -min_u;
    for (const Point& p : hull) {
      const double pu = p.x * u.x + p.y * u.y, pv = p.x * v.x + p.y * v.y;
      min_u = std::min(min_u, pu);
      max_u = std::max(max_u, pu);
      min_v = std::min(min_v, pv);
      max_v = std::max(max_v, pv);
    }
    const double area = (max_u - min_u) * (max_v - min_v);
    if (area < best_area) {
      best_area = area;
      const double cu = (min_u + max_u) / 2, cv = (min_v + max_v) / 2;
      best.center = {cu * u.x + cv * v.x, cu * u.y + cv * v.y};
      best.width = max_u - min_u;
      best.height = max_v - min_v;
      best.axis = u;
    }
  }
  // Keep the width the longer side, along an axis pointing right (or down
  // when vertical), so callers see text lines as wide rectangles.
  if (best.height > best.width) {
    std::swap(best.width, best.height);
    best.axis = {-best.axis.y, best.axis.x};
  }
  if (best.axis.x < 0 || (best.axis.x == 0 && best.axis.y < 0)) best.axis = {-best.axis.x, -best.axis.y};
  return best;
}

RotatedRect Grown(const RotatedRect& rect, double distance) {
  RotatedRect grown = rect;
  grown.width += 2 * distance;
  grown.height += 2 * distance;
  return grown;
}

Quad Corners(const RotatedRect& rect) {
  const Point u = rect.axis, v{-rect.axis.y, rect.axis.x};
  const double hw = rect.width / 2, hh = rect.height / 2;
  std::array<Point, 4> corners;
  const double su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
  for (int i = 0; i < 4; ++i) {
    corners[static_cast<size_t>(i)] = {rect.center.x + su[i] * hw * u.x + sv[i] * hh * v.x,
                                       rect.center.y + su[i] * hw * u.y + sv[i] * hh * v.y};
  }
  std::sort(corners.begin(), corners.end(), [](Point a, Point b) { return a.x < b.x; });
  Quad quad;
  // Leftmost two: upper is top-left, lower bottom-left; rightmost likewise.
  const bool left_swapped = corners[1].y < corners[0].y, right_swapped = corners[3].y < corners[2].y;
  quad[0] = left_swapped ? corners[1] : corners[0];
  quad[3] = left_swapped ? corners[0] : corners[1];
  quad[1] = right_swapped ? corners[3] : corners[2];
  quad[2] = right_swapped ? corners[2] : corners[3];
  return quad;
}

bool InsideQuad(const Quad& quad, Point p) {
  // Inside a convex polygon: on the same side of every edge (either winding).
  constexpr double kBorder = 1e-6;
  bool any_positive = false, any_negative = false;
  for (size_t i = 0; i < 4; ++i) {
    const double side = Cross(quad[i], quad[(i + 1) % 4], p);
    any_positive = any_positive || side > kBorder;
    any_negative = any_negative || side < -kBorder;
  }
  return !(any_positive && any_negative);
}

double Distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

}  // namespace glpool
