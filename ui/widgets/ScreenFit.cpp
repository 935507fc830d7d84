// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/ScreenFit.h"

#include <QScreen>
#include <QScrollArea>
#include <QWidget>

namespace gpumem::ui {

namespace {

// The frame (title bar, borders) that the window manager adds around the window's contents;
// none is known before the window is first shown.
QSize frameExtra(const QWidget *window)
{
    return window->frameGeometry().size() - window->geometry().size();
}

} // namespace

QSize sizeFittingScreen(const QWidget *window, QSize wanted)
{
    const QScreen *screen = window->screen();
    if (!screen)
        return wanted;
    return wanted.boundedTo(screen->availableGeometry().size() - frameExtra(window));
}

void keepOnScreen(QWidget *window)
{
    const QScreen *screen = window->screen();
    if (!screen || window->isMaximized() || window->isFullScreen())
        return;
    const QRect available = screen->availableGeometry();
    const QSize size = sizeFittingScreen(window, window->size());
    if (size != window->size())
        window->resize(size);
    // Then inside: the top-left corner moved back so that the whole frame shows.
    QRect frame = window->frameGeometry();
    frame.moveRight(std::min(frame.right(), available.right()));
    frame.moveBottom(std::min(frame.bottom(), available.bottom()));
    frame.moveLeft(std::max(frame.left(), available.left()));
    frame.moveTop(std::max(frame.top(), available.top()));
    if (frame.topLeft() != window->frameGeometry().topLeft())
        window->move(frame.topLeft());
}

QScrollArea *scrollingPage(QWidget *page)
{
    auto *area = new QScrollArea;
    area->setObjectName(page->objectName() + QStringLiteral("Scroller"));
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true);
    area->setWidget(page);
    return area;
}

} // namespace gpumem::ui
