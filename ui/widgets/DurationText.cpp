// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/DurationText.h"

#include <cmath>

namespace gpumem::ui {

QString durationText(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0.0)
        return QStringLiteral("–");
    const auto total = static_cast<qint64>(std::llround(seconds));
    if (total >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(total / 3600)
            .arg(total / 60 % 60, 2, 10, QLatin1Char('0'))
            .arg(total % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
}

} // namespace gpumem::ui
