// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Correlations.h"
#include "data/Table.h"
#include "ui/app/BackgroundTask.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QTableWidget;

namespace gpumem::ui {

// The Data page's table of each numeric feature's correlation with the target,
// Pearson's and Spearman's, the strongest first, each drawn as a bar in its cell.
// Categorical, identifier and sequence features are named below it as left out.
// data::targetCorrelations runs on a pool thread, so a large table never stalls
// the window.
class TargetCorrelationsView : public QWidget
{
    Q_OBJECT

  public:
    explicit TargetCorrelationsView(QWidget *parent = nullptr);

    // Computes the correlations of table's features with its target, as roles name them.
    void showCorrelations(std::shared_ptr<const data::Table> table, std::vector<data::ColumnRole> roles);
    void clear();
    bool isComputing() const { return mAwaitingOutcome; }
    QTableWidget *table() const { return mTable; }
    // The line under the table: the target, the rows, the features left out.
    QString noteText() const;

  Q_SIGNALS:
    // A computation has ended, whether or not its result was still wanted.
    void computingEnded();
    // New correlations are on show.
    void shown();

  private:
    struct Outcome
    {
        data::TargetCorrelations correlations;
        QString error;
    };

    void showOutcome();

    QTableWidget *mTable;
    QLabel *mNote;
    bool mAwaitingOutcome = false; // correlations were asked for and not cleared since
    BackgroundJob<Outcome> mComputing{this, &TargetCorrelationsView::showOutcome};
};

} // namespace gpumem::ui
