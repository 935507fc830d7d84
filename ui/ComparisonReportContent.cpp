// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ComparisonReportContent.h"

#include "ui/ChartExport.h"
#include "ui/QtText.h"
#include "ui/WorkbenchState.h"

#include <QChartView>

namespace gpumem::ui {

ReportContent comparisonReportContent(const WorkbenchState &state, const std::vector<QChartView *> &charts)
{
    ReportContent content;
    content.result = state.comparison();
    if (!content.result)
        return content;
    // The header the comparison was run with, as `gpumem compare` writes it: not
    // what the forms show now, which the user may have changed since.
    content.context = state.comparisonContext();
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
