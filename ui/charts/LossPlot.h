// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "training/TrainingProgress.h"

#include <QWidget>

#include <limits>
#include <vector>

class QCheckBox;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QSlider;
class QTimer;

namespace gpumem::ui {

// The live charts of a training. Above, how far off the network is in the target's
// units: the training and validation RMSE in MiB after each epoch (an ensemble's mean,
// each network thin behind it), beside another model's RMSE as a dashed line. Below,
// what the optimiser sees: the loss on the model's scaled target per batch (raw, faint,
// with an exponentially smoothed curve over it) and per epoch, with the learning rate on
// the right axis, which starts at 0. Both loss axes are logarithmic unless "Log scale" is
// turned off. Points are appended in bursts and the charts are redrawn at most once per
// 40 ms. Wheel zooms, drag pans, double-click resets (and resumes following new points);
// hovering reads out the values; the context menu saves a chart or its curves as CSV.
// GUI thread only.
class LossPlot : public QWidget
{
    Q_OBJECT

  public:
    explicit LossPlot(QWidget *parent = nullptr);

    void clear();
    // x is in epochs (epoch - 1 + batch / batches for batches).
    void addBatch(double x, double loss, double learningRate);
    // Adds an epoch's losses and its errors in MiB (those that are NaN are skipped).
    void addEpoch(const training::EpochProgress &progress);
    // Adds an epoch of one network of an ensemble (member counts from 0), drawn thin and
    // faint behind the mean that addEpoch draws, so the spread between the networks shows.
    void addMemberEpoch(int member, const training::EpochProgress &progress);
    // Draws rmseMib (e.g. XGBoost's in the last comparison) as a dashed line beside the
    // network's errors, named name in the legend; NaN removes it. Kept across clear().
    void setReferenceRmse(double rmseMib, const QString &name);
    // Redraws soon (coalesced: bursts of calls give one redraw).
    void scheduleReplot();

    // Names the loss trained, e.g. "MSE", on the optimisation chart's loss axis (the two
    // losses' curves do not compare); shown at the next redraw, which clear() and new points bring.
    void setLossName(const QString &name);

    void setLogarithmic(bool logarithmic);
    bool isLogarithmic() const;
    // Smoothing weight in [0, 1): 0 shows the raw curve only.
    void setSmoothing(double weight);

    int batchPointCount() const;
    int epochPointCount() const;
    // The networks of an ensemble with a curve of their own (0 for a single network).
    int memberCurveCount() const { return static_cast<int>(mMemberCurves.size()); }
    int replotCount() const { return mReplots; }
    // The chart of the errors in MiB.
    QCustomPlot *lossChart() const { return mLoss; }
    // The chart of the scaled loss and the learning rate.
    QCustomPlot *optimisationChart() const { return mOptimisation; }

  private:
    void replot();
    void recomputeSmoothed();
    void hideValidationFromLegend();
    double smoothedNext(double loss);
    void showReadout(QCustomPlot *chart, QMouseEvent *event);
    void resetView();

    QCustomPlot *mLoss;
    QCustomPlot *mOptimisation;
    QCheckBox *mLogarithmic;
    QSlider *mSmoothing;
    QLabel *mReadout;
    QTimer *mReplotTimer;
    double mSmoothingWeight = 0.9;
    double mSmoothedSum = 0.0;    // the moving average's running sum
    double mSmoothedWeight = 0.0; // the weight it has gathered
    bool mFollow = true;
    int mReplots = 0;
    double mReferenceRmse = std::numeric_limits<double>::quiet_NaN();
    // Each member's epoch training and validation RMSE, added after the fixed graphs.
    struct MemberCurves
    {
        QCPGraph *train = nullptr;
        QCPGraph *validation = nullptr;
    };
    MemberCurves &memberCurves(int member);
    std::vector<MemberCurves> mMemberCurves;
};

} // namespace gpumem::ui
