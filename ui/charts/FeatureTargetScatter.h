// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Correlations.h"
#include "data/Table.h"
#include "ui/app/BackgroundTask.h"

#include <QString>
#include <QWidget>

#include <cstddef>
#include <memory>

class QCPTextElement;
class QCustomPlot;
class QLabel;

namespace gpumem::ui {

// The Data page's scatter of one column against the target: the feature on the
// horizontal axis, the target (in its own units, e.g. "Max GPU Memory (MiB)") on the
// vertical one. A categorical column is drawn as a strip per category; identifier and
// layer-sequence columns are said not to be numeric. Large tables are thinned to at
// most maxPoints rows drawn at random (data::featureTargetSample), on a pool thread,
// and the chart's title says so.
class FeatureTargetScatter : public QWidget
{
    Q_OBJECT

  public:
    static constexpr std::size_t maxPoints = 3000;

    explicit FeatureTargetScatter(QWidget *parent = nullptr);

    // Shows column feature of table against column target (either may be absent).
    void showColumn(std::shared_ptr<const data::Table> table, std::optional<std::size_t> feature,
                    std::optional<std::size_t> target);
    void clear();
    // Whether the sample to draw is still being drawn from the table.
    bool isComputing() const { return mAwaitingSample; }
    // The points drawn now.
    int pointCount() const;
    // What the chart says above the points, or why there are none.
    QString titleText() const;
    QCustomPlot *plot() const { return mPlot; }

  Q_SIGNALS:
    // A computation has ended, whether or not its result was still wanted.
    void computingEnded();
    // The sample has been drawn and shown.
    void shown();

  private:
    struct SampleOutcome
    {
        data::FeatureTargetSample sample;
        QString error;
    };

    void showSample();
    // Empties the chart and says why in its title.
    void showMessage(const QString &message);

    QCustomPlot *mPlot;
    QCPTextElement *mTitle;
    QString mFeatureName;
    QString mTargetName;
    bool mAwaitingSample = false; // a sample was asked for and nothing else shown since
    BackgroundJob<SampleOutcome> mSampling{this, &FeatureTargetScatter::showSample};
};

} // namespace gpumem::ui
