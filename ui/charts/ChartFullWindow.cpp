// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ChartFullWindow.h"

#include "ui/charts/QCustomPlotInclude.h"

#include <QApplication>
#include <QChartView>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QScreen>
#include <QSplitter>

namespace gpumem::ui {

namespace {

bool isChartWidget(const QWidget *widget)
{
    return qobject_cast<const QChartView *>(widget) || qobject_cast<const QCustomPlot *>(widget);
}

} // namespace

ChartFullWindow::ChartFullWindow(QWidget *window)
    : QObject(window)
    , mWindow(window)
{
    // On the application, not on each chart: charts made later (a comparison's) are served too.
    qApp->installEventFilter(this);
}

ChartFullWindow::~ChartFullWindow()
{
    qApp->removeEventFilter(this);
}

QWidget *ChartFullWindow::chartOf(QWidget *widget)
{
    for (; widget; widget = widget->parentWidget())
        if (isChartWidget(widget))
            return widget;
    return nullptr;
}

bool ChartFullWindow::showAlone(QWidget *chart)
{
    if (!isChartWidget(chart) || mChart)
        return false;
    mChart = chart;
    const bool customPlot = qobject_cast<QCustomPlot *>(chart) != nullptr;
    mHint = new QLabel(customPlot ? tr("Esc or F11 returns") : tr("Esc, F11 or double-click returns"), chart);
    mHint->setObjectName(QStringLiteral("chartFullWindowHint"));
    mHint->setStyleSheet(QStringLiteral("background: rgba(255, 255, 255, 200); color: #444; padding: 2px 6px;"));
    mHint->adjustSize();
    mHint->move(4, 4);
    mHint->show();
    // Same parent, other flags: the layout, splitter or tab the chart sits in keeps its place.
    chart->setWindowFlags(Qt::Window | Qt::FramelessWindowHint);
    chart->setWindowTitle(chart->toolTip().isEmpty() ? mWindow->windowTitle() : chart->toolTip());
    chart->showFullScreen();
    // The screen's size set as well: without a window manager (Xvfb) full screen is only a wish.
    if (const QScreen *screen = mWindow->screen(); screen && chart->geometry() != screen->geometry())
        chart->setGeometry(screen->geometry());
    chart->activateWindow();
    chart->setFocus(Qt::OtherFocusReason);
    return true;
}

void ChartFullWindow::restore()
{
    if (!mChart)
        return;
    QWidget *chart = mChart;
    mChart = nullptr;
    delete mHint;
    chart->setWindowState(Qt::WindowNoState);
    chart->setWindowFlags(Qt::Widget);
    chart->show();
    // Laid out again at once: its size is still the screen's.
    if (QWidget *parent = chart->parentWidget(); parent && parent->layout()) {
        parent->layout()->invalidate();
        parent->layout()->activate();
    } else if (auto *splitter = qobject_cast<QSplitter *>(chart->parentWidget())) {
        splitter->refresh();
    }
    chart->updateGeometry();
    mWindow->activateWindow();
}

bool ChartFullWindow::eventFilter(QObject *watched, QEvent *event)
{
    const auto type = event->type();
    if (type != QEvent::MouseButtonDblClick && type != QEvent::KeyPress)
        return false;
    QWidget *chart = chartOf(qobject_cast<QWidget *>(watched));
    if (!chart)
        return false;
    if (chart == mChart) {
        const bool leave = type == QEvent::KeyPress ? (static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape ||
                                                       static_cast<QKeyEvent *>(event)->key() == Qt::Key_F11)
                                                    : qobject_cast<QChartView *>(chart) != nullptr;
        if (leave)
            restore();
        return leave;
    }
    // A double-click on one of this window's QChartViews; a QCustomPlot resets its view on it.
    if (type == QEvent::MouseButtonDblClick && !mChart && qobject_cast<QChartView *>(chart) &&
        mWindow->isAncestorOf(chart))
        return showAlone(chart);
    return false;
}

} // namespace gpumem::ui
