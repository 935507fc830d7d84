// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/ComparisonReportContent.h"

#include "ui/app/WorkbenchState.h"
#include "ui/pdfreport/ChartImages.h"
#include "ui/widgets/QtText.h"

#include <QChartView>

namespace gpumem::ui {

namespace {

// The size (logical pixels) the screen's charts are drawn at for a report: two to a row
// on paper keep their text at about 6 pt, and two fit side by side in the HTML page.
constexpr QSize reportChartSize(520, 340);
// Device pixels per logical pixel of the report's images: sharp on paper at half a page's width.
constexpr double reportImageScale = 2.0;

// Returns what view shows redrawn at size, leaving the view as it was on screen.
QImage chartImage(QChartView *view, const QSize &size)
{
    const QSize shown = view->size();
    view->resize(size);
    QImage image(size * reportImageScale, QImage::Format_RGB32);
    image.setDevicePixelRatio(reportImageScale);
    image.fill(Qt::white);
    // QWidget's render, not QGraphicsView's: it lays out a hidden view at its new size first.
    view->QWidget::render(&image);
    view->resize(shown);
    return image;
}

} // namespace

ReportContent comparisonReportContent(const WorkbenchState &state, const std::vector<QChartView *> &charts)
{
    ReportContent content;
    content.result = state.comparison();
    if (!content.result)
        return content;
    // The header the comparison was run with, as `gpumem compare` writes it: not
    // what the forms show now, which the user may have changed since.
    content.context = state.comparisonContext();
    // The metric bars are the report's own: they draw R² as 1 − R² on a log scale and zoom
    // onto near-equal values, where the screen's bars from zero all look alike.
    for (const auto &drawing : report::metricCharts(*content.result)) {
        QImage image = pdfreport::svgImage(drawing.svg, reportImageScale);
        image.setDevicePixelRatio(reportImageScale);
        content.images.emplace(drawing.chart.id, image);
    }
    // The scatter plots, residual histograms and the bound's curves are the ones on screen.
    for (QChartView *view : charts) {
        const QString id = view->objectName();
        if (id.startsWith(QStringLiteral("scatter_")) || id.startsWith(QStringLiteral("residuals_")) ||
            id == QStringLiteral("bound_curves"))
            content.images.emplace(coreText(id), chartImage(view, reportChartSize));
    }
    return content;
}

} // namespace gpumem::ui
