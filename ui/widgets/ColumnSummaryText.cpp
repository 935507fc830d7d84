// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/ColumnSummaryText.h"

#include "data/ColumnSummary.h"
#include "ui/widgets/QtText.h"

#include <QObject>
#include <QStringList>

namespace gpumem::ui {

namespace {

QString formatNumber(double value)
{
    return QString::number(value, 'g', 6);
}

} // namespace

QString columnSummaryText(const data::Column &column, std::size_t rowCount)
{
    const data::ColumnSummary summary = data::summarizeColumn(column, rowCount);
    QString text =
        QStringLiteral("<b>%1</b> (%2)<br>")
            .arg(QString::fromStdString(column.name).toHtmlEscaped(), qtText(data::columnTypeName(column.type)));
    text += QObject::tr("%L1 present, %L2 missing, %L3 invalid")
                .arg(summary.present)
                .arg(summary.missing)
                .arg(summary.invalid);
    switch (column.type) {
    case data::ColumnType::Numeric:
        text += QObject::tr("<br>min %1 · max %2<br>mean %3 · std. dev. %4")
                    .arg(formatNumber(summary.minimum), formatNumber(summary.maximum), formatNumber(summary.mean),
                         formatNumber(summary.standardDeviation));
        break;
    case data::ColumnType::Categorical:
    case data::ColumnType::Identifier: {
        QStringList top;
        for (const auto &value : summary.topValues)
            top << QString::fromStdString(value).toHtmlEscaped();
        text += QObject::tr("<br>%L1 distinct values").arg(summary.distinct);
        if (!top.isEmpty())
            text += QObject::tr("<br>most frequent: %1").arg(top.join(QStringLiteral(", ")));
        break;
    }
    case data::ColumnType::Sequence: {
        QStringList types;
        for (const auto &type : summary.layerTypes)
            types << QString::fromStdString(type).toHtmlEscaped();
        text += QObject::tr("<br>layers per row: %1 to %2, mean %3<br>%4 numbers per layer<br>layer types: %5")
                    .arg(formatNumber(summary.minimum), formatNumber(summary.maximum), formatNumber(summary.mean))
                    .arg(summary.fieldsPerLayer)
                    .arg(types.join(QStringLiteral(", ")));
        break;
    }
    case data::ColumnType::Empty: break;
    }
    if (column.firstNonNumericCell)
        text += QObject::tr("<br>cannot be the target: line %1: %2")
                    .arg(column.firstNonNumericCell->line)
                    .arg(QString::fromStdString(column.firstNonNumericCell->reason).toHtmlEscaped());
    return text;
}

} // namespace gpumem::ui
