// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/LossPlot.h"

#include "ui/charts/ChartExport.h"
#include "ui/charts/CurveCsvExport.h"
#include "ui/charts/QCustomPlotInclude.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace gpumem::ui {

namespace {

// The graphs of the chart of errors in MiB; each member's curves come after them.
enum ErrorGraph
{
    TrainRmse,
    ValidationRmse,
    ReferenceRmse // a flat line at another model's RMSE
};

// The graphs of the optimisation chart.
enum OptimisationGraph
{
    RawBatches,
    SmoothedBatches,
    EpochTrain,
    EpochValidation,
    LearningRate // on the right axis
};

// Coalescing window of redraws: about 25 frames per second however fast points arrive.
constexpr int replotIntervalMilliseconds = 40;

const QColor trainColour(20, 20, 20);
const QColor validationColour(214, 39, 40);
const QColor batchColour(31, 119, 180);

QString numberText(double value)
{
    return QString::number(value, 'g', 4);
}

QCPGraph *addCurve(QCustomPlot *chart, QCPAxis *valueAxis, const QString &name, const QPen &pen)
{
    QCPGraph *graph = chart->addGraph(chart->xAxis, valueAxis);
    graph->setName(name);
    graph->setPen(pen);
    graph->setAdaptiveSampling(true);
    return graph;
}

// Epochs are whole: ticks at whole numbers only (1, 2, 5, 10, … apart as the range grows).
QSharedPointer<QCPAxisTickerFixed> epochTicker()
{
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    return ticker;
}

void setAxisLogarithmic(QCPAxis *axis, bool logarithmic)
{
    if (logarithmic) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
}

// Lines the plot areas of two charts stacked one above the other up, so that an epoch of one
// sits above the same epoch of the other, whatever their tick labels (and the learning rate's
// right axis, which only the lower one has) need: each side takes the wider automatic margin.
void alignPlotAreas(QCustomPlot *upper, QCustomPlot *lower)
{
    int left = 0;
    int right = 0;
    for (QCustomPlot *chart : {upper, lower}) {
        chart->axisRect()->setAutoMargins(QCP::msAll);
        chart->plotLayout()->update(QCPLayoutElement::upPreparation);
        chart->plotLayout()->update(QCPLayoutElement::upMargins);
        left = std::max(left, chart->axisRect()->margins().left());
        right = std::max(right, chart->axisRect()->margins().right());
    }
    for (QCustomPlot *chart : {upper, lower}) {
        QMargins margins = chart->axisRect()->margins();
        margins.setLeft(left);
        margins.setRight(right);
        chart->axisRect()->setAutoMargins(QCP::msTop | QCP::msBottom);
        chart->axisRect()->setMargins(margins);
    }
}

void addIfFinite(QCPGraph *graph, double x, double value)
{
    if (std::isfinite(value))
        graph->addData(x, value);
}

} // namespace

LossPlot::LossPlot(QWidget *parent)
    : QWidget(parent)
    , mLoss(new QCustomPlot(this))
    , mOptimisation(new QCustomPlot(this))
    , mLogarithmic(new QCheckBox(tr("Log scale"), this))
    , mSmoothing(new QSlider(Qt::Horizontal, this))
    , mReadout(new QLabel(this))
    , mReplotTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("lossPlot"));
    mLoss->setObjectName(QStringLiteral("lossChart"));
    mOptimisation->setObjectName(QStringLiteral("optimisationChart"));
    mLoss->setToolTip(tr("How far off the network is, in MiB: the RMSE of the training rows and of the validation "
                         "rows after each epoch (an ensemble's mean, each network thin behind it). Wheel: zoom, "
                         "drag: pan, double-click: reset."));
    mOptimisation->setToolTip(tr("What training minimises, on the model's scaled target: the loss per batch "
                                 "(faint: raw, bold: smoothed) and per epoch, with the learning rate the schedule "
                                 "set (right axis)"));

    addCurve(mLoss, mLoss->yAxis, tr("training RMSE"), QPen(trainColour, 2.0))
        ->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    addCurve(mLoss, mLoss->yAxis, tr("validation RMSE"), QPen(validationColour, 2.0))
        ->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 6));
    addCurve(mLoss, mLoss->yAxis, QString(), QPen(QColor(255, 127, 14), 2.0, Qt::DashLine))->removeFromLegend();
    mLoss->yAxis->setLabel(tr("RMSE (MiB)"));
    mLoss->xAxis->setLabel(tr("epoch"));
    mLoss->xAxis->setTicker(epochTicker());
    // An ensemble's networks are drawn behind the mean curves.
    mLoss->addLayer(QStringLiteral("members"), mLoss->layer(QStringLiteral("main")), QCustomPlot::limBelow);
    mLoss->setMinimumHeight(220);

    addCurve(mOptimisation, mOptimisation->yAxis, tr("batch loss (raw)"), QPen(QColor(31, 119, 180, 55), 1.0));
    addCurve(mOptimisation, mOptimisation->yAxis, tr("batch loss (smoothed)"), QPen(batchColour, 2.0));
    addCurve(mOptimisation, mOptimisation->yAxis, tr("epoch train loss"), QPen(trainColour, 1.5))
        ->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    addCurve(mOptimisation, mOptimisation->yAxis, tr("validation loss"), QPen(validationColour, 1.5))
        ->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 5));
    addCurve(mOptimisation, mOptimisation->yAxis2, tr("learning rate (right)"), QPen(QColor(44, 160, 44), 1.5));
    mOptimisation->yAxis2->setVisible(true);
    mOptimisation->yAxis2->setLabel(tr("learning rate"));
    mOptimisation->xAxis->setLabel(tr("epoch"));
    mOptimisation->xAxis->setTicker(epochTicker());
    mOptimisation->setMinimumHeight(160);
    hideValidationFromLegend();
    setLossName(tr("MSE"));

    for (QCustomPlot *chart : {mLoss, mOptimisation}) {
        chart->legend->setVisible(true);
        chart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
        chart->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
        connect(chart, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
        // A drag or wheel means the user is looking somewhere: stop following new points.
        connect(chart, &QCustomPlot::mouseWheel, this, [this] { mFollow = false; });
        connect(chart, &QCustomPlot::mousePress, this, [this] { mFollow = false; });
        connect(chart, &QCustomPlot::mouseMove, this, [this, chart](QMouseEvent *event) { showReadout(chart, event); });
    }
    installChartExport(mLoss, QStringLiteral("rmse"));
    installCurveCsvExport(mLoss, QStringLiteral("rmse"));
    installChartExport(mOptimisation, QStringLiteral("loss"));
    installCurveCsvExport(mOptimisation, QStringLiteral("loss"));

    mLogarithmic->setObjectName(QStringLiteral("logScale"));
    mLogarithmic->setToolTip(tr("Show the errors and the loss on logarithmic axes, where late, small improvements "
                                "stay visible"));
    connect(mLogarithmic, &QCheckBox::toggled, this, &LossPlot::setLogarithmic);

    mSmoothing->setObjectName(QStringLiteral("smoothing"));
    mSmoothing->setRange(0, 99);
    mSmoothing->setValue(static_cast<int>(mSmoothingWeight * 100));
    mSmoothing->setToolTip(tr("Exponential smoothing of the batch loss (0: none, 0.99: strong); the raw curve stays "
                              "faint behind it"));
    connect(mSmoothing, &QSlider::valueChanged, this, [this](int value) { setSmoothing(value / 100.0); });

    mReadout->setObjectName(QStringLiteral("plotReadout"));
    mReadout->setToolTip(tr("Values under the mouse pointer"));
    mReadout->setMinimumWidth(200);

    mReplotTimer->setSingleShot(true);
    mReplotTimer->setInterval(replotIntervalMilliseconds);
    connect(mReplotTimer, &QTimer::timeout, this, &LossPlot::replot);

    auto *controls = new QHBoxLayout;
    controls->addWidget(mLogarithmic);
    controls->addWidget(new QLabel(tr("Smoothing:"), this));
    controls->addWidget(mSmoothing, 1);
    controls->addWidget(mReadout, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(mLoss, 3);
    layout->addWidget(mOptimisation, 2);
    // The errors span orders of magnitude from the first epoch to the last: logarithmic from the start.
    setLogarithmic(true);
}

void LossPlot::clear()
{
    // The next training may have another number of networks, or one.
    for (const MemberCurves &curves : mMemberCurves) {
        mLoss->removeGraph(curves.train);
        mLoss->removeGraph(curves.validation);
    }
    mMemberCurves.clear();
    for (QCustomPlot *chart : {mLoss, mOptimisation})
        for (int graph = 0; graph < chart->graphCount(); ++graph)
            chart->graph(graph)->data()->clear();
    hideValidationFromLegend();
    mSmoothedSum = 0.0;
    mSmoothedWeight = 0.0;
    mFollow = true;
    scheduleReplot();
}

void LossPlot::addBatch(double x, double loss, double learningRate)
{
    mOptimisation->graph(RawBatches)->addData(x, loss);
    mOptimisation->graph(SmoothedBatches)->addData(x, smoothedNext(loss));
    mOptimisation->graph(LearningRate)->addData(x, learningRate);
}

void LossPlot::addEpoch(const training::EpochProgress &progress)
{
    const double x = progress.epoch;
    mOptimisation->graph(EpochTrain)->addData(x, progress.trainLoss);
    addIfFinite(mLoss->graph(TrainRmse), x, progress.trainRmse);
    if (progress.validationLoss >= 0.0) {
        mOptimisation->graph(EpochValidation)->addData(x, progress.validationLoss);
        mOptimisation->graph(EpochValidation)->addToLegend(); // nothing when it is there already
    }
    if (std::isfinite(progress.validationRmse)) {
        mLoss->graph(ValidationRmse)->addData(x, progress.validationRmse);
        mLoss->graph(ValidationRmse)->addToLegend();
    }
}

void LossPlot::addMemberEpoch(int member, const training::EpochProgress &progress)
{
    if (member < 0)
        return;
    MemberCurves &curves = memberCurves(member);
    addIfFinite(curves.train, progress.epoch, progress.trainRmse);
    if (std::isfinite(progress.validationRmse)) {
        curves.validation->addData(progress.epoch, progress.validationRmse);
        if (member == 0)
            curves.validation->addToLegend(); // nothing when it is there already
    }
}

LossPlot::MemberCurves &LossPlot::memberCurves(int member)
{
    while (static_cast<int>(mMemberCurves.size()) <= member) {
        // Thin and faint in the colours of the mean curves; the legend names the first only.
        MemberCurves curves;
        curves.train =
            addCurve(mLoss, mLoss->yAxis, tr("each network's training RMSE"), QPen(QColor(20, 20, 20, 110), 1.0));
        curves.validation =
            addCurve(mLoss, mLoss->yAxis, tr("each network's validation RMSE"), QPen(QColor(214, 39, 40, 110), 1.0));
        curves.validation->removeFromLegend();
        if (!mMemberCurves.empty())
            curves.train->removeFromLegend();
        curves.train->setLayer(QStringLiteral("members"));
        curves.validation->setLayer(QStringLiteral("members"));
        mMemberCurves.push_back(curves);
    }
    return mMemberCurves[static_cast<std::size_t>(member)];
}

void LossPlot::hideValidationFromLegend()
{
    // A training without validation rows (the defaults and the default preset hold none
    // out) draws no validation curves, so the legends name them only once they have a point.
    mLoss->graph(ValidationRmse)->removeFromLegend();
    mOptimisation->graph(EpochValidation)->removeFromLegend();
}

void LossPlot::setLossName(const QString &name)
{
    mOptimisation->yAxis->setLabel(tr("%1 loss (scaled target)").arg(name));
}

void LossPlot::setReferenceRmse(double rmseMib, const QString &name)
{
    mReferenceRmse = rmseMib;
    QCPGraph *reference = mLoss->graph(ReferenceRmse);
    reference->data()->clear();
    reference->setName(name);
    if (std::isfinite(rmseMib))
        reference->addToLegend();
    else
        reference->removeFromLegend();
    scheduleReplot();
}

void LossPlot::scheduleReplot()
{
    if (!mReplotTimer->isActive())
        mReplotTimer->start();
}

void LossPlot::replot()
{
    // The reference is a flat line across every epoch drawn so far (at least the first).
    QCPGraph *reference = mLoss->graph(ReferenceRmse);
    reference->data()->clear();
    bool found = false;
    const QCPRange epochs = mOptimisation->graph(RawBatches)->getKeyRange(found);
    if (std::isfinite(mReferenceRmse)) {
        reference->addData(found ? std::min(0.0, epochs.lower) : 0.0, mReferenceRmse);
        reference->addData(found ? std::max(1.0, epochs.upper) : 1.0, mReferenceRmse);
    }
    if (mFollow) {
        for (QCustomPlot *chart : {mLoss, mOptimisation}) {
            chart->rescaleAxes();
            // A little room above and below, so the first and lowest points are not cut by the frame.
            if (chart->yAxis->scaleType() == QCPAxis::stLinear)
                chart->yAxis->scaleRange(1.08);
            else
                chart->yAxis->setRange(chart->yAxis->range().lower / 1.15, chart->yAxis->range().upper * 1.15);
        }
        // A rate is read against nothing: its axis starts at 0, and the warm-up rises from there.
        QCPAxis *rate = mOptimisation->yAxis2;
        rate->setRange(0.0, rate->range().upper > 0.0 ? rate->range().upper * 1.08 : 1.0);
        // Both charts span the same epochs, batches included, so that one epoch sits above the other.
        QCPRange shared = found ? epochs : mLoss->xAxis->range();
        shared.lower = std::min(shared.lower, 0.0);
        shared.upper = std::max(shared.upper, mLoss->xAxis->range().upper);
        mLoss->xAxis->setRange(shared);
        mOptimisation->xAxis->setRange(shared);
    }
    alignPlotAreas(mLoss, mOptimisation);
    mLoss->replot(QCustomPlot::rpQueuedReplot);
    mOptimisation->replot(QCustomPlot::rpQueuedReplot);
    ++mReplots;
}

void LossPlot::resetView()
{
    mFollow = true;
    replot();
}

void LossPlot::setLogarithmic(bool logarithmic)
{
    if (mLogarithmic->isChecked() != logarithmic)
        mLogarithmic->setChecked(logarithmic);
    setAxisLogarithmic(mLoss->yAxis, logarithmic);
    setAxisLogarithmic(mOptimisation->yAxis, logarithmic);
    resetView();
}

bool LossPlot::isLogarithmic() const
{
    return mLoss->yAxis->scaleType() == QCPAxis::stLogarithmic;
}

void LossPlot::setSmoothing(double weight)
{
    mSmoothingWeight = std::clamp(weight, 0.0, 0.99);
    recomputeSmoothed();
    mOptimisation->graph(SmoothedBatches)->setVisible(mSmoothingWeight > 0.0);
    mOptimisation->graph(RawBatches)->setPen(QPen(QColor(31, 119, 180, mSmoothingWeight > 0.0 ? 55 : 255), 1.0));
    scheduleReplot();
}

double LossPlot::smoothedNext(double loss)
{
    // An exponential moving average divided by the weight it has gathered so far, so
    // the first points are not pulled towards zero (as TensorBoard smooths).
    mSmoothedSum = mSmoothingWeight * mSmoothedSum + (1.0 - mSmoothingWeight) * loss;
    mSmoothedWeight = mSmoothingWeight * mSmoothedWeight + (1.0 - mSmoothingWeight);
    return mSmoothedWeight > 0.0 ? mSmoothedSum / mSmoothedWeight : loss;
}

void LossPlot::recomputeSmoothed()
{
    QSharedPointer<QCPGraphDataContainer> raw = mOptimisation->graph(RawBatches)->data();
    QVector<double> keys, values;
    keys.reserve(raw->size());
    values.reserve(raw->size());
    mSmoothedSum = 0.0;
    mSmoothedWeight = 0.0;
    for (auto it = raw->constBegin(); it != raw->constEnd(); ++it) {
        keys << it->key;
        values << smoothedNext(it->value);
    }
    mOptimisation->graph(SmoothedBatches)->setData(keys, values, true);
}

void LossPlot::showReadout(QCustomPlot *chart, QMouseEvent *event)
{
    const double x = chart->xAxis->pixelToCoord(event->pos().x());
    QStringList parts{tr("epoch %1").arg(x, 0, 'f', 2)};
    for (int index = 0; index < chart->graphCount(); ++index) {
        QCPGraph *graph = chart->graph(index);
        // The raw batches under the smoothed ones, and each network under the mean, would crowd the line.
        if (graph->data()->isEmpty() || !graph->visible() || graph->name().isEmpty() ||
            (chart == mOptimisation && index == RawBatches) || (chart == mLoss && index > ReferenceRmse))
            continue;
        auto it = graph->data()->findBegin(x, true);
        if (it == graph->data()->constEnd())
            continue;
        parts << QStringLiteral("%1 %2").arg(graph->name(), numberText(it->value));
    }
    mReadout->setText(parts.join(QStringLiteral(" · ")));
}

int LossPlot::batchPointCount() const
{
    return mOptimisation->graph(RawBatches)->dataCount();
}

int LossPlot::epochPointCount() const
{
    return mOptimisation->graph(EpochTrain)->dataCount();
}

} // namespace gpumem::ui
