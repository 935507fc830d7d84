// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/WheelOnlyWhenFocused.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QPointer>
#include <QScrollBar>

namespace gpumem::ui {

WheelOnlyWhenFocused::WheelOnlyWhenFocused(QObject *parent)
    : QObject(parent)
{
}

bool WheelOnlyWhenFocused::guards(const QWidget *widget)
{
    // A scroll bar is a slider too, but the wheel is what it is for.
    if (qobject_cast<const QScrollBar *>(widget))
        return false;
    return qobject_cast<const QAbstractSpinBox *>(widget) || qobject_cast<const QComboBox *>(widget) ||
           qobject_cast<const QAbstractSlider *>(widget);
}

bool WheelOnlyWhenFocused::eventFilter(QObject *watched, QEvent *event)
{
    auto *widget = qobject_cast<QWidget *>(watched);
    if (event->type() != QEvent::Wheel || !widget || widget->hasFocus())
        return QObject::eventFilter(watched, event);
    // Qt hands an ignored wheel to the parents only when it came from the window system, so
    // the filter passes it on itself, the way Qt would: to the innermost scroll area that
    // can still scroll, then the ones around it.
    event->ignore();
    for (QWidget *ancestor = widget->parentWidget(); ancestor && !event->isAccepted();
         ancestor = ancestor->isWindow() ? nullptr : ancestor->parentWidget()) {
        // A scroll area takes the wheel through its viewport, as it does from the window system.
        if (auto *area = qobject_cast<QAbstractScrollArea *>(ancestor))
            QCoreApplication::sendEvent(area->viewport(), event);
    }
    // Handled either way: the editor under the pointer must not take it.
    return true;
}

void installWheelOnlyWhenFocused(QWidget *root)
{
    // One filter for the whole application: a form inside a page may be covered by both, and
    // installing the same filter again only moves it to the front, so nothing runs twice.
    static QPointer<WheelOnlyWhenFocused> filter;
    if (!filter)
        filter = new WheelOnlyWhenFocused(QCoreApplication::instance());
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *widget : widgets)
        if (WheelOnlyWhenFocused::guards(widget)) {
            widget->setFocusPolicy(Qt::StrongFocus);
            widget->installEventFilter(filter);
        }
}

} // namespace gpumem::ui
