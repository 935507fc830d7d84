// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's View actions: Zoom in, Zoom out, Reset zoom and Large font, all steps of one
// scale that reaches the widgets (through the application font) and the charts; and a chart full window.
#include "ui/app/MainWindow.h"
#include "ui/app/ZoomSteps.h"
#include "ui/charts/ChartFonts.h"
#include "ui/charts/ChartFullWindow.h"
#include "ui/charts/ChartStyle.h"
#include "ui/charts/EmptyChartHint.h"
#include "ui/charts/LossPlot.h"
#include "ui/pages/ComparePage.h"
#include "ui/pages/DataPage.h"
#include "ui/pages/PredictPage.h"
#include "ui/pages/RunsPage.h"
#include "ui/pages/TrainingPage.h"
#include "ui/pages/YourModelPage.h"
#include "ui/widgets/HeaderFit.h"
#include "ui/widgets/ScreenFit.h"

#include <QAction>
#include <QApplication>
#include <QCursor>
#include <QScrollArea>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>

namespace gpumem::ui {

namespace {
const char *const zoomKey = "view/zoom";
// Before the zoom steps the view remembered only whether the large font was on.
const char *const largeFontKey = "view/largeFont";
} // namespace

void MainWindow::restoreZoom()
{
    QSettings settings;
    const bool large = settings.value(largeFontKey, false).toBool();
    setZoom(settings.value(zoomKey, large ? largeFontZoom : normalZoom).toInt());
}

void MainWindow::setZoom(int percent)
{
    mZoom = nearestZoomStep(percent);
    const QFont font = zoomedFont(mNormalFont, mZoom);
    QApplication::setFont(font);
    setChartLineScale(mZoom / 100.0);
    // Widgets follow the application font by themselves; charts keep the fonts they were made with.
    applyChartFontsBelow(this, font);
    applyChartStyleBelow(this);
    // The training's two charts line their plot areas up with margins fixed in the font they were
    // computed in: computed again in the new one.
    for (LossPlot *plot : findChildren<LossPlot *>())
        plot->scheduleReplot();
    // The chart on show alone is no longer below the window.
    if (QWidget *chart = mChartFullWindow->chart()) {
        applyChartFontsBelow(chart, font);
        applyChartStyleBelow(chart);
    }
    QSettings settings;
    settings.setValue(zoomKey, mZoom);
    settings.setValue(largeFontKey, isLargeFont());
    if (auto *action = findChild<QAction *>(QStringLiteral("largeFontAction")); action)
        action->setChecked(isLargeFont());
    if (auto *action = findChild<QAction *>(QStringLiteral("zoomInAction")); action)
        action->setEnabled(mZoom < zoomSteps.back());
    if (auto *action = findChild<QAction *>(QStringLiteral("zoomOutAction")); action)
        action->setEnabled(mZoom > zoomSteps.front());
    sizeHelpPanel();
    // Once the pages have laid out in the new font: no header may be cut, and larger text must not
    // carry the window off the screen.
    QTimer::singleShot(0, this, [this] {
        fitHeadersToTextBelow(this);
        keepOnScreen(this);
    });
}

void MainWindow::zoomIn()
{
    setZoom(largerZoomStep(mZoom));
}

void MainWindow::zoomOut()
{
    setZoom(smallerZoomStep(mZoom));
}

void MainWindow::resetZoom()
{
    setZoom(normalZoom);
}

void MainWindow::setLargeFont(bool large)
{
    // Switching on from a larger step keeps it: the text is already at least that large.
    if (large != isLargeFont())
        setZoom(large ? largeFontZoom : normalZoom);
}

bool MainWindow::isLargeFont() const
{
    return mZoom >= largeFontZoom;
}

void MainWindow::hintEmptyCharts()
{
    // What each page's charts wait for; a chart that says more for itself keeps its own text.
    setEmptyChartHintBelow(mDataPage, tr("Load a CSV (Ctrl+O), drop one on the window, or try Help ▸ Demo"));
    setEmptyChartHintBelow(mTrainingPage, tr("Load a CSV (Ctrl+O) or try Help ▸ Demo, then Start (F5)"));
    setEmptyChartHintBelow(mComparePage, tr("Load a CSV (Ctrl+O) or try Help ▸ Demo, then Run comparison"));
    setEmptyChartHintBelow(mPredictPage, tr("Load a model folder or use the trained model, then predict"));
    setEmptyChartHintBelow(
        mRunsPage, tr("Train on the Training page (F5): every training becomes a run here; Sweep… trains many"));
    setEmptyChartHintBelow(mYourModelPage, tr("Open your model (File ▸ Open your model), then press Estimate"));
}

bool MainWindow::showChartFullWindow()
{
    // The chart pointed at, else the one with focus, else the largest the page shows.
    QWidget *chart = ChartFullWindow::chartOf(QApplication::widgetAt(QCursor::pos()));
    if (!chart || !isAncestorOf(chart))
        chart = ChartFullWindow::chartOf(QApplication::focusWidget());
    if (!chart || !isAncestorOf(chart)) {
        chart = nullptr;
        const auto *area = qobject_cast<QScrollArea *>(mPages->currentWidget());
        const QRect shown = area ? area->viewport()->rect() : QRect();
        int largest = 0;
        for (QWidget *candidate : area ? area->widget()->findChildren<QWidget *>() : QList<QWidget *>()) {
            if (ChartFullWindow::chartOf(candidate) != candidate || !candidate->isVisible())
                continue;
            const QRect visible =
                QRect(candidate->mapTo(area->viewport(), QPoint(0, 0)), candidate->size()).intersected(shown);
            if (visible.width() * visible.height() > largest) {
                largest = visible.width() * visible.height();
                chart = candidate;
            }
        }
    }
    return chart && mChartFullWindow->showAlone(chart);
}

} // namespace gpumem::ui
