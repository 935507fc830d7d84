// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/ZoomSteps.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace gpumem::ui {

int nearestZoomStep(int percent)
{
    return *std::min_element(zoomSteps.begin(), zoomSteps.end(), [percent](int left, int right) {
        return std::abs(left - percent) < std::abs(right - percent);
    });
}

int largerZoomStep(int percent)
{
    const auto next = std::upper_bound(zoomSteps.begin(), zoomSteps.end(), nearestZoomStep(percent));
    return next == zoomSteps.end() ? zoomSteps.back() : *next;
}

int smallerZoomStep(int percent)
{
    const auto current = std::lower_bound(zoomSteps.begin(), zoomSteps.end(), nearestZoomStep(percent));
    return current == zoomSteps.begin() ? zoomSteps.front() : *(current - 1);
}

QFont zoomedFont(const QFont &base, int percent)
{
    QFont font = base;
    const double factor = percent / 100.0;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(static_cast<int>(std::lround(font.pixelSize() * factor)));
    return font;
}

} // namespace gpumem::ui
