// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <limits>
#include <vector>

class QCheckBox;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QSlider;
class QTimer;

namespace gpumem::ui {

// The live loss chart of a training: per-batch training loss (raw, faint, with an
// exponentially smoothed curve over it), per-epoch training and validation loss,
// and the learning rate below. Points are appended in bursts and the chart is
// redrawn at most once per 40 ms. Wheel zooms, drag pans, double-click resets
// (and resumes following new points); hovering reads out the values.
// GUI thread only.
class LossPlot : public QWidget
{
    Q_OBJECT

  public:
    explicit LossPlot(QWidget *parent = nullptr);

    void clear();
    // x is in epochs (epoch - 1 + batch / batches for batches).
    void addBatch(double x, double loss, double learningRate);
    void addEpoch(double x, double trainLoss, double validationLoss);
    // Adds epoch x of one network of an ensemble (member counts from 0), drawn thin and
    // faint behind the mean that addEpoch draws, so the spread between the networks shows.
    void addMemberEpoch(int member, double x, double trainLoss, double validationLoss);
    // Adds epoch x's validation RMSE in MiB, drawn on the right axis; NaN is skipped.
    void addValidationRmse(double x, double rmseMib);
    // Draws rmseMib (e.g. XGBoost's in the last comparison) as a dashed line on the
    // right axis, named name in the legend; NaN removes it. Kept across clear().
    void setReferenceRmse(double rmseMib, const QString &name);
    // Redraws soon (coalesced: bursts of calls give one redraw).
    void scheduleReplot();

    // Names the loss trained, e.g. "MSE", on the loss axis (the two losses' curves do not
    // compare); shown at the next redraw, which clear() and new points bring.
    void setLossName(const QString &name);

    void setLogarithmic(bool logarithmic);
    // Smoothing weight in [0, 1): 0 shows the raw curve only.
    void setSmoothing(double weight);

    int batchPointCount() const;
    int epochPointCount() const;
    // The networks of an ensemble with a curve of their own (0 for a single network).
    int memberCurveCount() const { return static_cast<int>(mMemberCurves.size()); }
    int replotCount() const { return mReplots; }
    QCustomPlot *lossChart() const { return mLoss; }
    QCustomPlot *learningRateChart() const { return mLearningRate; }

  private:
    void replot();
    void recomputeSmoothed();
    void hideValidationFromLegend();
    double smoothedNext(double loss);
    void showReadout(QMouseEvent *event);
    void resetView();

    QCustomPlot *mLoss;
    QCustomPlot *mLearningRate;
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
    // Each member's epoch training and validation loss, added after the fixed graphs.
    struct MemberCurves
    {
        QCPGraph *train = nullptr;
        QCPGraph *validation = nullptr;
    };
    MemberCurves &memberCurves(int member);
    std::vector<MemberCurves> mMemberCurves;
};

} // namespace gpumem::ui
