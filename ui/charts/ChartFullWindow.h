// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>

class QLabel;
class QWidget;

namespace gpumem::ui {

// Shows one chart alone, full screen, for the back of a room, and puts it back where it was.
// The chart widget itself becomes the full-screen window for a while (layouts, splitters and tab
// widgets skip a child that is a window), so it keeps its data, zoom and menus, and returns to
// the very place it left. Works for QChartView and QCustomPlot alike.
//
// Made once by the main window, it watches the application's events for the window's charts:
// double-click on a QChartView shows it alone (a QCustomPlot keeps double-click for resetting
// its view, so it goes full window with F11, View ▸ Chart full window); in the full window Esc,
// F11, or a double-click on a QChartView, returns it.
class ChartFullWindow : public QObject
{
    Q_OBJECT

  public:
    // window: the top-level window whose charts this serves.
    explicit ChartFullWindow(QWidget *window);
    ~ChartFullWindow() override;

    // The chart widget (QChartView or QCustomPlot) that widget is or lies inside, or null.
    static QWidget *chartOf(QWidget *widget);
    // Shows chart alone, full screen; false when chart is not a chart or another is shown already.
    bool showAlone(QWidget *chart);
    // Puts the chart shown alone back into its page.
    void restore();
    // The chart shown alone, or null.
    QWidget *chart() const { return mChart; }

  protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

  private:
    QWidget *mWindow;
    QPointer<QWidget> mChart;
    QPointer<QLabel> mHint; // how to return, over the chart's corner
};

} // namespace gpumem::ui
