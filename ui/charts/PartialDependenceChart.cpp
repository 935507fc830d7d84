// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/PartialDependenceChart.h"

#include "ui/charts/ChartExport.h"
#include "ui/charts/ChartFonts.h"
#include "ui/charts/ComparisonCharts.h"
#include "ui/charts/ModelColours.h"
#include "ui/widgets/LabelledRow.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/QtText.h"

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpumem::ui {

QChart *partialDependenceChart(const evaluation::ExperimentResult &result, std::size_t grid)
{
    const evaluation::PartialDependenceGrid &values = result.partialDependenceGrids.at(grid);
    const QString input = qtText(values.input);
    auto *chart = new QChart;
    styleChart(chart, QObject::tr("Predicted memory against %1, other inputs as they are").arg(input));
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    std::vector<QLineSeries *> lines;
    for (std::size_t index = 0; index < result.models.size(); ++index) {
        const auto &model = result.models[index];
        if (grid >= model.partialDependence.size())
            continue;
        auto *line = new QLineSeries;
        line->setName(qtText(model.title));
        line->setPen(QPen(modelColour(index), 2.5));
        const std::vector<double> &mean = model.partialDependence[grid].mean;
        for (std::size_t point = 0; point < mean.size() && point < values.values.size(); ++point) {
            if (!std::isfinite(mean[point]))
                continue;
            line->append(values.values[point], mean[point]);
            low = std::min(low, mean[point]);
            high = std::max(high, mean[point]);
        }
        lines.push_back(line);
    }
    if (!std::isfinite(low)) {
        low = 0.0;
        high = 1.0;
    }
    const double pad = std::max((high - low) * 0.06, 1.0);
    auto *axisY = new QValueAxis;
    axisY->setRange(low >= 0.0 ? std::max(0.0, low - pad) : low - pad, high + pad);
    axisY->applyNiceNumbers();
    labelTicksPlainly(axisY);
    axisY->setTitleText(QObject::tr("mean predicted peak memory (MiB)"));
    auto *axisX = new QValueAxis;
    axisX->setRange(values.values.front(), values.values.back());
    axisX->applyNiceNumbers();
    labelTicksPlainly(axisX);
    axisX->setTitleText(input);

    // The range of the data, shaded first so that the lines draw over it.
    auto *top = new QLineSeries;
    auto *bottom = new QLineSeries;
    *top << QPointF(values.trainingMinimum, axisY->max()) << QPointF(values.trainingMaximum, axisY->max());
    *bottom << QPointF(values.trainingMinimum, axisY->min()) << QPointF(values.trainingMaximum, axisY->min());
    auto *range = new QAreaSeries(top, bottom);
    range->setName(QObject::tr("range of the data"));
    range->setColor(QColor(120, 120, 120, 45));
    range->setBorderColor(QColor(120, 120, 120, 90));
    chart->addSeries(range);
    for (QLineSeries *line : lines)
        chart->addSeries(line);
    attachValueAxes(chart, axisX, axisY);
    chart->legend()->setAlignment(Qt::AlignRight);
    return chart;
}

PartialDependencePane::PartialDependencePane(QWidget *parent)
    : QWidget(parent)
    , mInputs(namedWidget<QComboBox>(QStringLiteral("partialDependenceInput"),
                                     tr("The numeric input whose value is set for every job before each model "
                                        "predicts; the chart shows the mean prediction at each value"),
                                     this))
    , mView(new QChartView(this))
    , mHint(new QLabel(this))
{
    mView->setObjectName(QStringLiteral("partial_dependence"));
    mView->setRenderHint(QPainter::Antialiasing);
    mView->setMinimumSize(330, 280);
    mView->setToolTip(tr("Each line: the model's mean prediction over %1 jobs of the data with this input set to "
                         "the value on the axis. Right-click to save the chart as PNG or SVG")
                          .arg(evaluation::ExplanationSettings{}.averagedRows));
    installChartExport(mView, QStringLiteral("partial_dependence"));
    mHint->setObjectName(QStringLiteral("partialDependenceHint"));
    mHint->setWordWrap(true);
    mHint->setAlignment(Qt::AlignCenter);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(labelledRow(tr("Input:"), mInputs, this));
    layout->addWidget(mView, 1);
    layout->addWidget(mHint);
    connect(mInputs, &QComboBox::currentIndexChanged, this, &PartialDependencePane::showInput);
    setResult(nullptr);
}

void PartialDependencePane::setResult(std::shared_ptr<const evaluation::ExperimentResult> result)
{
    const QString chosen = mInputs->currentText();
    mResult = std::move(result);
    const QSignalBlocker quiet(mInputs);
    mInputs->clear();
    if (mResult)
        for (const auto &grid : mResult->partialDependenceGrids)
            mInputs->addItem(qtText(grid.input));
    const bool shown = mInputs->count() > 0 && mResult && !mResult->models.empty();
    mInputs->setEnabled(shown);
    mView->setVisible(shown);
    mHint->setVisible(!shown);
    if (!shown) {
        mHint->setText(mResult && !mResult->models.empty()
                           ? tr("This comparison measured no partial dependence: its data has no numeric input, "
                                "or it was saved without them. Run it again to measure them.")
                           : tr("Run the comparison to see how each model's prediction follows one input."));
        return;
    }
    mInputs->setCurrentIndex(std::max(0, mInputs->findText(chosen)));
    showInput(mInputs->currentIndex());
}

void PartialDependencePane::showInput(int index)
{
    if (!mResult || index < 0 || static_cast<std::size_t>(index) >= mResult->partialDependenceGrids.size())
        return;
    QChart *chart = partialDependenceChart(*mResult, static_cast<std::size_t>(index));
    // A chart takes its text sizes from the application font, so it follows View ▸ Large font.
    applyChartFonts(chart, QApplication::font());
    QChart *previous = mView->chart();
    mView->setChart(chart);
    delete previous; // the view gives up a replaced chart without deleting it
}

} // namespace gpumem::ui
