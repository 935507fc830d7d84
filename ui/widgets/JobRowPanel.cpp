// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/JobRowPanel.h"

#include "data/JobNames.h"
#include "ui/models/TableModel.h"
#include "ui/widgets/QtText.h"

#include <QChart>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpumem::ui {

namespace {

QString mebibytes(double value)
{
    return std::isfinite(value) ? QObject::tr("%L1 MiB").arg(value, 0, 'f', 0) : QObject::tr("n/a");
}

} // namespace

JobRowPanel::JobRowPanel(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("jobRowPanel"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setFrameShape(QFrame::StyledPanel);
    setMargin(6);
    setToolTip(tr("The job of the point clicked last: its inputs, its actual memory and every model's prediction"));
    setComparison(nullptr, nullptr, nullptr, {});
}

void JobRowPanel::setComparison(std::shared_ptr<const evaluation::ExperimentResult> result,
                                std::shared_ptr<const data::Dataset> dataset, std::shared_ptr<const data::Table> table,
                                std::vector<std::string> inputs)
{
    mResult = std::move(result);
    mDataset = std::move(dataset);
    mTable = std::move(table);
    mInputs = std::move(inputs);
    mRow = -1;
    setText(tr("Click a point of a chart to see its job: its inputs, its actual memory and every model's "
               "prediction."));
}

void JobRowPanel::watch(QChart *scatter, std::size_t model)
{
    for (QAbstractSeries *series : scatter->series())
        if (auto *points = qobject_cast<QScatterSeries *>(series))
            connect(points, &QScatterSeries::clicked, this, [this, model](const QPointF &point) {
                const Eigen::Index row = nearestRow(model, point);
                if (row >= 0)
                    showRow(row);
            });
}

Eigen::Index JobRowPanel::nearestRow(std::size_t model, const QPointF &point) const
{
    if (!mResult || !mDataset || model >= mResult->models.size())
        return -1;
    const Eigen::VectorXd &actual = mDataset->target();
    const Eigen::VectorXd &predicted = mResult->models[model].predictions;
    Eigen::Index nearest = -1;
    double closest = std::numeric_limits<double>::infinity();
    // Both axes are MiB on one scale, so plain distance picks the point under the click.
    for (Eigen::Index row = 0; row < std::min(actual.size(), predicted.size()); ++row) {
        const double distance = std::hypot(actual[row] - point.x(), predicted[row] - point.y());
        if (distance < closest) {
            closest = distance;
            nearest = row;
        }
    }
    return nearest;
}

void JobRowPanel::showRow(Eigen::Index row)
{
    if (!mResult || !mDataset || row < 0 || row >= static_cast<Eigen::Index>(mDataset->rowCount()))
        return;
    mRow = row;
    const std::int64_t line = mDataset->rowLines()[static_cast<std::size_t>(row)];
    QString heading = tr("Line %1").arg(line);
    QStringList inputs;
    if (mTable) {
        const std::string name = data::jobNames(*mTable, {line}).front();
        if (!name.empty())
            heading = tr("Job %1 (line %2)").arg(qtText(name)).arg(line);
        const auto &lines = mTable->rowLines();
        const auto found = std::lower_bound(lines.begin(), lines.end(), line);
        if (found != lines.end() && *found == line) {
            const auto tableRow = static_cast<std::size_t>(found - lines.begin());
            for (const auto &input : mInputs)
                if (const auto column = mTable->columnIndex(input))
                    inputs << QStringLiteral("%1 = <b>%2</b>")
                                  .arg(qtText(input).toHtmlEscaped(),
                                       cellText(*mTable, tableRow, *column).toHtmlEscaped());
        }
    }
    const double actual = mDataset->target()[row];
    QStringList predictions;
    for (const auto &model : mResult->models) {
        const double predicted = row < model.predictions.size() ? model.predictions[row] : std::nan("");
        const QString error = std::isfinite(predicted) ? QStringLiteral(" (%1%L2)")
                                                             .arg(predicted >= actual ? QStringLiteral("+") : QString())
                                                             .arg(predicted - actual, 0, 'f', 0)
                                                       : QString();
        predictions
            << QStringLiteral("%1 <b>%2</b>%3").arg(qtText(model.title).toHtmlEscaped(), mebibytes(predicted), error);
    }
    setText(QStringLiteral("<b>%1</b> — %2<br>%3: <b>%4</b> · %5: %6")
                .arg(heading.toHtmlEscaped(), inputs.join(QStringLiteral(", ")), tr("actual"), mebibytes(actual),
                     tr("predicted"), predictions.join(QStringLiteral(", "))));
}

} // namespace gpumem::ui
