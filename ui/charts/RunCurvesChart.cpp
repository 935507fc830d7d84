// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/RunCurvesChart.h"

#include "ui/charts/QCustomPlotInclude.h"
#include "ui/pages/RunsPage.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>

namespace gpumem::ui {

namespace {

bool anyFinite(const QVector<double> &values)
{
    return std::any_of(values.begin(), values.end(), [](double value) { return std::isfinite(value); });
}

// Whether a run recorded its errors in MiB (runs of earlier versions kept only the losses).
bool hasRmse(const runs::RunRecord &run)
{
    return std::any_of(run.epochs.begin(), run.epochs.end(),
                       [](const runs::EpochPoint &point) { return std::isfinite(point.trainRmse); });
}

} // namespace

std::vector<std::string> datasetsOf(const std::vector<const runs::RunRecord *> &runs)
{
    std::vector<std::string> names;
    for (const runs::RunRecord *run : runs)
        if (!run->dataset.empty() && std::find(names.begin(), names.end(), run->dataset) == names.end())
            names.push_back(run->dataset);
    return names;
}

RunCurvesChart::RunCurvesChart(QWidget *parent)
    : RunsChart(QStringLiteral("runCurves"), tr("Error of the selected runs"), QStringLiteral("run_curves"), parent)
    , mLogarithmic(new QCheckBox(tr("Log scale"), this))
    , mWarning(new QLabel(this))
{
    mChart->legend->setVisible(true);
    mChart->legend->setFont(mChart->font());
    mChart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    mChart->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mChart->xAxis->setLabel(tr("epoch"));
    // Epochs are whole numbers: ticks at 1, 2, 3, … (or multiples of them on long runs).
    auto epochTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    epochTicker->setTickStep(1.0);
    epochTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    mChart->xAxis->setTicker(epochTicker);

    mLogarithmic->setObjectName(QStringLiteral("runCurvesLogScale"));
    mLogarithmic->setToolTip(tr("Show the errors on a logarithmic axis, where late, small improvements stay visible"));
    mLogarithmic->setChecked(true);
    connect(mLogarithmic, &QCheckBox::toggled, this, &RunCurvesChart::setLogarithmic);
    mWarning->setObjectName(QStringLiteral("runCurvesWarning"));
    mWarning->setWordWrap(true);
    mWarning->setStyleSheet(QStringLiteral("color: #9a4a00;"));
    mWarning->hide();

    auto *controls = new QHBoxLayout;
    controls->addWidget(mLogarithmic);
    controls->addWidget(mWarning, 1);
    addControls(controls);
    setLogarithmic(true);
}

void RunCurvesChart::showRuns(const std::vector<runs::RunRecord> &all, const std::vector<std::size_t> &shown)
{
    mRuns.clear();
    mIndices.clear();
    std::vector<const runs::RunRecord *> runs;
    for (const std::size_t index : shown) {
        mRuns.push_back(all[index]);
        mIndices.push_back(index);
        runs.push_back(&all[index]);
    }
    const std::vector<std::string> datasets = datasetsOf(runs);
    QStringList names;
    for (const std::string &dataset : datasets)
        names << QFileInfo(QString::fromStdString(dataset)).fileName();
    mWarning->setText(datasets.size() > 1 ? tr("These runs trained on %1 data files (%2): their errors do not "
                                               "compare. Select the runs of one file (see the Data column).")
                                                .arg(datasets.size())
                                                .arg(names.join(QStringLiteral(", ")))
                                          : QString());
    mWarning->setVisible(datasets.size() > 1);
    redraw();
}

QString RunCurvesChart::datasetWarning() const
{
    return mWarning->text();
}

void RunCurvesChart::redraw()
{
    mChart->clearGraphs();
    // One unit for every curve: MiB when every run has it, else the loss each recorded.
    const bool inMib = !mRuns.empty() && std::all_of(mRuns.begin(), mRuns.end(), hasRmse);
    mChart->yAxis->setLabel(inMib ? tr("RMSE (MiB) — solid: training, dashed: validation")
                                  : tr("loss (scaled target) — solid: training, dashed: validation"));
    for (std::size_t shown = 0; shown < mRuns.size(); ++shown) {
        const runs::RunRecord &run = mRuns[shown];
        QVector<double> epochs;
        QVector<double> training;
        QVector<double> validation;
        for (const auto &point : run.epochs) {
            epochs.push_back(point.epoch);
            training.push_back(inMib ? point.trainRmse : point.trainLoss);
            validation.push_back(inMib ? point.validationRmse : point.validationLoss);
        }
        const QColor colour = runColour(mIndices[shown]);
        const QString name = QString::fromStdString(run.name);
        QCPGraph *train = mChart->addGraph();
        train->setName(name);
        train->setPen(QPen(colour, 2));
        train->setData(epochs, training, true);
        train->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        if (anyFinite(validation)) {
            QCPGraph *held = mChart->addGraph();
            // Named for the readout and the CSV; the legend names each run once.
            held->setName(tr("%1 (validation)").arg(name));
            held->setPen(QPen(colour, 1.5, Qt::DashLine));
            held->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
            held->setData(epochs, validation, true);
            held->removeFromLegend();
        }
    }
    mChart->rescaleAxes();
    // Half an epoch of margin, so that a one-epoch run's point is not on the frame.
    mChart->xAxis->setRange(mChart->xAxis->range().lower - 0.5, mChart->xAxis->range().upper + 0.5);
    if (isLogarithmic())
        mChart->yAxis->setRange(mChart->yAxis->range().lower / 1.2, mChart->yAxis->range().upper * 1.2);
    else
        mChart->yAxis->scaleRange(1.1);
    mChart->replot();
}

void RunCurvesChart::setLogarithmic(bool logarithmic)
{
    if (mLogarithmic->isChecked() != logarithmic)
        mLogarithmic->setChecked(logarithmic);
    mChart->yAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    mChart->yAxis->setTicker(logarithmic ? QSharedPointer<QCPAxisTicker>(QSharedPointer<QCPAxisTickerLog>::create())
                                         : QSharedPointer<QCPAxisTicker>::create());
    redraw();
}

bool RunCurvesChart::isLogarithmic() const
{
    return mChart->yAxis->scaleType() == QCPAxis::stLogarithmic;
}

} // namespace gpumem::ui
