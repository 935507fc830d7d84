// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/TargetCorrelationsView.h"

#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/ResultTable.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QScopeGuard>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace gpumem::ui {

namespace {

enum CorrelationColumn
{
    FeatureColumn,
    PearsonColumn,
    SpearmanColumn,
    RowsColumn
};

// A cell showing r as text over a bar as long as |r| is of the cell's width, blue
// for a rising relation and red for a falling one.
QTableWidgetItem *correlationItem(const std::optional<double> &r)
{
    auto *item = new QTableWidgetItem(r ? QString::number(*r, 'f', 3) : QObject::tr("—"));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (!r) {
        item->setToolTip(QObject::tr("Undefined: fewer than three rows, or a constant column"));
        return item;
    }
    item->setData(Qt::UserRole, *r);
    return item;
}

// Draws a correlation cell's bar (its value in Qt::UserRole) behind the cell's text.
class CorrelationBarDelegate : public QStyledItemDelegate
{
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QVariant value = index.data(Qt::UserRole);
        if (value.isValid()) {
            const double r = value.toDouble();
            QRectF bar = QRectF(option.rect).adjusted(1, 3, -1, -3);
            bar.setWidth(bar.width() * std::clamp(std::abs(r), 0.0, 1.0));
            painter->fillRect(bar, r >= 0 ? QColor(90, 140, 210, 110) : QColor(210, 100, 90, 110));
        }
        QStyledItemDelegate::paint(painter, option, index);
    }
};

} // namespace

TargetCorrelationsView::TargetCorrelationsView(QWidget *parent)
    : QWidget(parent)
    , mTable(namedWidget<QTableWidget>(QStringLiteral("targetCorrelations"),
                                       tr("How each numeric feature goes with the target: Pearson's r (a straight "
                                          "line) and Spearman's ρ (any rising or falling relation), from −1 to 1"),
                                       this))
    , mNote(new QLabel(this))
{
    prepareResultTable(mTable, {tr("Feature"), tr("Pearson r"), tr("Spearman ρ"), tr("Rows")});
    mTable->horizontalHeader()->setSectionResizeMode(FeatureColumn, QHeaderView::Stretch);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto *bars = new CorrelationBarDelegate(mTable);
    mTable->setItemDelegateForColumn(PearsonColumn, bars);
    mTable->setItemDelegateForColumn(SpearmanColumn, bars);
    mTable->setColumnWidth(PearsonColumn, 110);
    mTable->setColumnWidth(SpearmanColumn, 110);
    mNote->setObjectName(QStringLiteral("targetCorrelationsNote"));
    mNote->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mTable, 1);
    layout->addWidget(mNote);
    clear();
}

void TargetCorrelationsView::clear()
{
    mComputing.cancel();
    mAwaitingOutcome = false;
    mTable->setRowCount(0);
    mNote->setText(tr("Load data and choose a numeric target to see how each feature goes with it."));
}

void TargetCorrelationsView::showCorrelations(std::shared_ptr<const data::Table> table,
                                              std::vector<data::ColumnRole> roles)
{
    if (!table) {
        clear();
        return;
    }
    mComputing.cancel();
    mAwaitingOutcome = true;
    mNote->setText(tr("Computing the correlations …"));
    mComputing.start(
        [table = std::move(table), roles = std::move(roles)](Outcome &outcome, runtime::OperationControl *control) {
            outcome.correlations = data::targetCorrelations(*table, roles, control);
        });
}

void TargetCorrelationsView::showOutcome()
{
    const Outcome outcome = mComputing.take();
    // Said on every way out, after the result is on show: the page's busy bar goes by it.
    const auto ended = qScopeGuard([this] { Q_EMIT computingEnded(); });
    if (!std::exchange(mAwaitingOutcome, false))
        return;
    const data::TargetCorrelations &correlations = outcome.correlations;
    mTable->setRowCount(0);
    if (!outcome.error.isEmpty()) {
        mNote->setText(outcome.error);
        return;
    }
    if (correlations.target.empty()) {
        mNote->setText(tr("Choose a numeric target to see how each feature goes with it."));
        return;
    }
    mTable->setRowCount(static_cast<int>(correlations.numeric.size()));
    for (std::size_t index = 0; index < correlations.numeric.size(); ++index) {
        const data::FeatureCorrelation &feature = correlations.numeric[index];
        const int row = static_cast<int>(index);
        auto *name = new QTableWidgetItem(QString::fromStdString(feature.column));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        mTable->setItem(row, FeatureColumn, name);
        mTable->setItem(row, PearsonColumn, correlationItem(feature.pearson));
        mTable->setItem(row, SpearmanColumn, correlationItem(feature.spearman));
        auto *rows = new QTableWidgetItem(QStringLiteral("%L1").arg(static_cast<qulonglong>(feature.rows)));
        rows->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        rows->setFlags(rows->flags() & ~Qt::ItemIsEditable);
        mTable->setItem(row, RowsColumn, rows);
    }
    mTable->resizeColumnToContents(RowsColumn);
    QString note = tr("With %1, strongest |r| first.").arg(QString::fromStdString(correlations.target).toHtmlEscaped());
    if (correlations.numeric.empty())
        note = tr("No numeric feature to correlate with %1.")
                   .arg(QString::fromStdString(correlations.target).toHtmlEscaped());
    if (!correlations.notNumeric.empty()) {
        QStringList names;
        for (const auto &name : correlations.notNumeric)
            names << QString::fromStdString(name).toHtmlEscaped();
        note += QLatin1Char(' ') + tr("Left out, not numeric: %1.").arg(names.join(QStringLiteral(", ")));
    }
    mNote->setText(note);
    Q_EMIT shown();
}

QString TargetCorrelationsView::noteText() const
{
    return mNote->text();
}

} // namespace gpumem::ui
