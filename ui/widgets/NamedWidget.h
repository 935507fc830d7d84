// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <utility>

namespace gpumem::ui {

// Creates a Widget from arguments (as its constructor takes them, the parent last)
// with the two things every control of a page gets first: the object name that tests
// and style sheets find it by, and its tooltip.
template <typename Widget, typename... Arguments>
Widget *namedWidget(const QString &objectName, const QString &toolTip, Arguments &&...arguments)
{
    auto *widget = new Widget(std::forward<Arguments>(arguments)...);
    widget->setObjectName(objectName);
    widget->setToolTip(toolTip);
    return widget;
}

} // namespace gpumem::ui
