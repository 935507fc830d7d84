// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCustomPlot;
class QLayout;

namespace gpumem::ui {

// What the Runs page's charts share: one plot under its title, whose context menu saves
// it as PNG or SVG and its curves as CSV, filling the widget below the controls a chart
// adds. Each chart draws the runs it is given in its own way. GUI thread only.
class RunsChart : public QWidget
{
    Q_OBJECT

  public:
    QCustomPlot *chart() const { return mChart; }

  protected:
    // objectName names the plot (tests find it by that); fileStem names the files it saves.
    RunsChart(const QString &objectName, const QString &title, const QString &fileStem, QWidget *parent);

    // Puts a row of controls above the plot.
    void addControls(QLayout *controls);

    QCustomPlot *const mChart;
};

} // namespace gpumem::ui
