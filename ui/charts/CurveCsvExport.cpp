// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/CurveCsvExport.h"

#include "io/AtomicFileWriter.h"
#include "io/NumberText.h"
#include "ui/charts/ChartExport.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/widgets/QtText.h"

namespace gpumem::ui {

std::string curvesCsv(const QCustomPlot &chart)
{
    std::string csv = "curve,x,y,axis\n";
    for (int index = 0; index < chart.graphCount(); ++index) {
        const QCPGraph *graph = chart.graph(index);
        if (!graph->visible() || graph->data()->isEmpty())
            continue;
        // A curve the legend leaves unnamed (a run's validation line) still needs a name to be told apart.
        const std::string name =
            coreText(graph->name().isEmpty() ? QStringLiteral("curve %1").arg(index + 1) : graph->name());
        const std::string axis = coreText(graph->valueAxis()->label());
        for (auto point = graph->data()->constBegin(); point != graph->data()->constEnd(); ++point)
            csv += io::csvField(name) + ',' + io::csvNumber(point->key) + ',' + io::csvNumber(point->value) + ',' +
                   io::csvField(axis) + '\n';
    }
    return csv;
}

bool saveCurvesCsv(const QCustomPlot &chart, const QString &path)
{
    try {
        io::writeFileAtomically(coreText(path), curvesCsv(chart));
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

void installCurveCsvExport(QCustomPlot *chart, const QString &baseName)
{
    addSaveAction(chart, QObject::tr("Export CSV…"), baseName + QStringLiteral(".csv"),
                  QObject::tr("CSV files (*.csv)"),
                  [chart](const QString &path) { return saveCurvesCsv(*chart, path); });
}

} // namespace gpumem::ui
