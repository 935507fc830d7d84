// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>

#include <array>

namespace gpumem::ui {

// The sizes View ▸ Zoom steps through, in percent of the normal font. Large font is the
// 150 % step, so the old toggle and the steps agree.
inline constexpr std::array<int, 5> zoomSteps{100, 125, 150, 175, 200};
inline constexpr int normalZoom = 100;
inline constexpr int largeFontZoom = 150;

// The step closest to percent (a value remembered by another version snaps to a step).
int nearestZoomStep(int percent);
// The next step up or down from percent, or percent's own step at either end.
int largerZoomStep(int percent);
int smallerZoomStep(int percent);

// base scaled to percent, in points when base has a point size, else in pixels.
QFont zoomedFont(const QFont &base, int percent);

} // namespace gpumem::ui
