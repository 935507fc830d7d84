// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QWidget;

namespace gpumem::ui {

// An event filter that lets a spin box, combo box or slider take the mouse wheel only
// while it has keyboard focus; otherwise the wheel goes on to the scroll area around it,
// so that scrolling a form never edits the field that passes under the pointer.
// GUI thread only.
class WheelOnlyWhenFocused : public QObject
{
    Q_OBJECT

  public:
    explicit WheelOnlyWhenFocused(QObject *parent = nullptr);

    // Returns whether widget is an editor the filter guards: a spin box, combo box or slider.
    static bool guards(const QWidget *widget);

  protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

// Installs the application's WheelOnlyWhenFocused on root and on every editor below it that
// guards() names, and gives each of them Qt::StrongFocus so that a click or Tab, but not the
// wheel, focuses it. Forms call it once built, and again after adding editors; an editor
// covered twice (a form inside a page) is filtered once. GUI thread only.
void installWheelOnlyWhenFocused(QWidget *root);

} // namespace gpumem::ui
