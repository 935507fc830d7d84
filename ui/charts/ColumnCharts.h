// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <QTabWidget>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QProgressBar;

namespace gpumem::ui {

class FeatureTargetScatter;
class TargetCorrelationsView;

// The Data page's charts, as tabs: the target's distribution, the selected column
// against the target, and every feature's correlation with the target. What takes
// time on a large table runs on pool threads; a busy bar in the tab bar's corner
// shows while anything is still being computed.
class ColumnCharts : public QTabWidget
{
    Q_OBJECT

  public:
    enum Tab
    {
        DistributionTab,
        ScatterTab,
        CorrelationsTab
    };

    explicit ColumnCharts(QWidget *parent = nullptr);

    // Shows table under roles, with column selected (if any) against the target. Work
    // already done for the same table, roles and column is not done again.
    void showData(const std::shared_ptr<const data::Table> &table, const std::vector<data::ColumnRole> &roles,
                  std::optional<std::size_t> selected);
    // Whether a chart is still being computed.
    bool isComputing() const;
    FeatureTargetScatter *scatter() const { return mScatter; }
    TargetCorrelationsView *correlations() const { return mCorrelations; }

  Q_SIGNALS:
    // Nothing is being computed any more.
    void settled();

  private:
    void showHistogram(const data::Table *table, std::optional<std::size_t> target);
    void updateBusy();

    QCustomPlot *mHistogram;
    FeatureTargetScatter *mScatter;
    TargetCorrelationsView *mCorrelations;
    QProgressBar *mBusy;
    // What the charts show now, so that a repeated request does nothing.
    std::weak_ptr<const data::Table> mShownTable;
    std::vector<data::ColumnRole> mShownRoles;
    std::optional<std::size_t> mShownColumn;
};

} // namespace gpumem::ui
