// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ComparisonReportContent.h"

#include "data/JobNames.h"
#include "evaluation/Ranking.h"
#include "ui/ChartExport.h"
#include "ui/QtText.h"
#include "ui/WorkbenchState.h"

#include <QChartView>
#include <QFileInfo>

namespace gpumem::ui {

ReportContent comparisonReportContent(const WorkbenchState &state, std::uint64_t seed,
                                      const std::vector<QChartView *> &charts)
{
    ReportContent content;
    content.result = state.comparison();
    if (!content.result)
        return content;
    const auto dataset = state.comparisonDataset();
    const auto request = state.roleRequest();
    report::ComparisonContext &context = content.context;
    context.dataset = coreText(QFileInfo(state.dataPath()).fileName());
    context.target = request.target;
    context.rows = dataset ? dataset->rowCount() : static_cast<std::size_t>(content.result->actual.size());
    context.features = request.features;
    if (!request.sequenceColumn.empty())
        context.features.push_back(request.sequenceColumn);
    const auto &splits = content.result->splits;
    context.folds = static_cast<int>(evaluation::splitsPerRepetition(*content.result));
    context.repeats = content.result->repeats;
    if (splits.size() == 1 && !splits.front().test.empty())
        context.testFraction = static_cast<double>(splits.front().test.size()) /
                               static_cast<double>(splits.front().test.size() + splits.front().train.size());
    context.seed = seed;
    if (dataset) {
        context.rowLines = dataset->rowLines();
        if (const auto table = state.table())
            context.rowNames = data::jobNames(*table, dataset->rowLines());
    }
    // The charts on screen stand in for the report's own: the metric bars and the scatter plots.
    for (QChartView *view : charts) {
        QString id = view->objectName();
        if (id.startsWith(QStringLiteral("chart_")))
            id.replace(0, 6, QStringLiteral("metric_"));
        if (id.startsWith(QStringLiteral("metric_")) || id.startsWith(QStringLiteral("scatter_")) ||
            id == QStringLiteral("bound_curves"))
            content.images.emplace(coreText(id), widgetImage(view, QSize(800, 500)));
    }
    return content;
}

} // namespace gpumem::ui
