// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/RunRelationChart.h"

#include "ui/charts/QCustomPlotInclude.h"
#include "ui/charts/RunCurvesChart.h"
#include "ui/pages/RunsPage.h"
#include "ui/widgets/LabelledRow.h"
#include "ui/widgets/NamedWidget.h"

#include <QComboBox>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <set>

namespace gpumem::ui {

std::string sweptHyperparameter(const std::vector<runs::RunRecord> &runs, const std::vector<std::string> &candidates)
{
    std::string swept;
    std::size_t most = 0;
    for (const std::string &name : candidates) {
        std::set<std::string> texts;
        for (const auto &run : runs)
            if (const auto *value = run.hyperparameter(name))
                texts.insert(runs::hyperparameterValueText(*value));
        if (swept.empty() || texts.size() > most) {
            swept = name;
            most = texts.size();
        }
    }
    return swept;
}

bool wantsLogarithmicAxis(const std::string &name, const std::vector<double> &values)
{
    if (values.empty() || !std::all_of(values.begin(), values.end(), [](double value) { return value > 0.0; }))
        return false;
    const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
    // Rates are tried a factor apart (0.001, 0.003, 0.01): equal steps on a log axis.
    return name == "learning_rate" || *highest / *lowest > 10.0;
}

RunRelationChart::RunRelationChart(QWidget *parent)
    : RunsChart(QStringLiteral("runRelation"), tr("Hyperparameter and validation RMSE"), QStringLiteral("run_relation"),
                parent)
    , mParameter(namedWidget<QComboBox>(QStringLiteral("relationParameter"),
                                        tr("The hyperparameter on the chart's horizontal axis"), this))
{
    mChart->legend->setFont(mChart->font());
    mChart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    mChart->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mChart->yAxis->setLabel(tr("validation RMSE (MiB)"));
    addControls(labelledRow(tr("Hyperparameter:"), mParameter, this));
    connect(mParameter, &QComboBox::currentTextChanged, this, [this] {
        mChosenByUser = true;
        redraw();
    });
}

void RunRelationChart::showRuns(const std::vector<runs::RunRecord> &runs, const std::vector<std::string> &candidates)
{
    mRuns = runs;
    const QString chosen = mParameter->currentText();
    {
        const QSignalBlocker blocker(mParameter);
        mParameter->clear();
        for (const auto &name : candidates)
            mParameter->addItem(QString::fromStdString(name));
        // A sweep's hyperparameter, unless the user picked one that is still offered.
        const int kept = mChosenByUser ? mParameter->findText(chosen) : -1;
        mChosenByUser = kept >= 0;
        mParameter->setCurrentIndex(
            kept >= 0
                ? kept
                : std::max(0, mParameter->findText(QString::fromStdString(sweptHyperparameter(runs, candidates)))));
    }
    redraw();
}

void RunRelationChart::redraw()
{
    mChart->clearGraphs();
    const std::string name = mParameter->currentText().toStdString();
    mChart->xAxis->setLabel(QString::fromStdString(name));
    // Text values (a schedule, an optimizer) sit at whole positions named by a text ticker.
    std::vector<std::string> categories;
    for (const auto &run : mRuns)
        if (const auto *value = run.hyperparameter(name); value && std::holds_alternative<std::string>(*value))
            if (std::find(categories.begin(), categories.end(), std::get<std::string>(*value)) == categories.end())
                categories.push_back(std::get<std::string>(*value));
    std::vector<const runs::RunRecord *> all;
    for (const auto &run : mRuns)
        all.push_back(&run);
    // One point set per data file: the errors of two files do not compare.
    std::vector<std::string> datasets = datasetsOf(all);
    if (datasets.empty())
        datasets.emplace_back();
    std::vector<double> positions;
    bool wholeValues = true; // ticks only at whole numbers then
    for (std::size_t group = 0; group < datasets.size(); ++group) {
        QVector<double> xs;
        QVector<double> ys;
        for (const auto &run : mRuns) {
            const auto *value = run.hyperparameter(name);
            const bool inGroup = datasets.size() == 1 || run.dataset == datasets[group];
            if (!inGroup || !value || !run.validationMetrics || !std::isfinite(run.validationMetrics->rmse))
                continue;
            double x = runs::hyperparameterValueNumber(*value);
            if (const auto *text = std::get_if<std::string>(value))
                x = static_cast<double>(std::find(categories.begin(), categories.end(), *text) - categories.begin());
            wholeValues = wholeValues && x == std::floor(x);
            xs.push_back(x);
            ys.push_back(run.validationMetrics->rmse);
            positions.push_back(x);
        }
        QCPGraph *points = mChart->addGraph();
        points->setName(datasets[group].empty() ? tr("runs")
                                                : QFileInfo(QString::fromStdString(datasets[group])).fileName());
        points->setLineStyle(QCPGraph::lsNone);
        points->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(runColour(group), 2), runColour(group), 8));
        points->setData(xs, ys);
    }
    mChart->legend->setVisible(datasets.size() > 1);
    const bool logarithmic = categories.empty() && wantsLogarithmicAxis(name, positions);
    if (!categories.empty()) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (std::size_t index = 0; index < categories.size(); ++index)
            ticker->addTick(static_cast<double>(index), QString::fromStdString(categories[index]));
        mChart->xAxis->setTicker(ticker);
        mChart->xAxis->setScaleType(QCPAxis::stLinear);
    } else if (logarithmic) {
        mChart->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        mChart->xAxis->setScaleType(QCPAxis::stLogarithmic);
    } else if (wholeValues) {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
        ticker->setTickStep(1.0);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        mChart->xAxis->setTicker(ticker);
        mChart->xAxis->setScaleType(QCPAxis::stLinear);
    } else {
        mChart->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        mChart->xAxis->setScaleType(QCPAxis::stLinear);
    }
    mChart->rescaleAxes();
    if (logarithmic)
        mChart->xAxis->setRange(mChart->xAxis->range().lower / 1.5, mChart->xAxis->range().upper * 1.5);
    else if (!positions.empty() && mChart->xAxis->range().size() > 0.0)
        mChart->xAxis->scaleRange(1.2);
    if (mChart->xAxis->range().size() <= 0.0)
        mChart->xAxis->setRange(mChart->xAxis->range().lower - 1.0, mChart->xAxis->range().upper + 1.0);
    mChart->yAxis->scaleRange(1.2);
    if (mChart->yAxis->range().lower < 0.0)
        mChart->yAxis->setRangeLower(0.0); // an RMSE is never negative
    mChart->replot();
}

} // namespace gpumem::ui
