// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/LossPlot.h"

#include "ui/ChartExport.h"
#include "ui/QCustomPlotInclude.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace gpumem::ui {

namespace {

enum Graph
{
    RawBatches,
    SmoothedBatches,
    EpochTrain,
    EpochValidation,
    ValidationRmse, // MiB, on the right axis
    ReferenceRmse   // a flat line at another model's RMSE, on the right axis
};

// Coalescing window of redraws: about 25 frames per second however fast points arrive.
constexpr int replotIntervalMilliseconds = 40;

QString numberText(double value)
{
    return QString::number(value, 'g', 4);
}

} // namespace

LossPlot::LossPlot(QWidget *parent)
    : QWidget(parent)
    , mLoss(new QCustomPlot(this))
    , mLearningRate(new QCustomPlot(this))
    , mLogarithmic(new QCheckBox(tr("Log scale"), this))
    , mSmoothing(new QSlider(Qt::Horizontal, this))
    , mReadout(new QLabel(this))
    , mReplotTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("lossPlot"));
    mLoss->setObjectName(QStringLiteral("lossChart"));
    mLearningRate->setObjectName(QStringLiteral("learningRateChart"));
    mLoss->setToolTip(tr("Training loss per batch (faint: raw, bold: smoothed), per epoch (an ensemble's mean, each "
                         "network thin behind it), and validation loss, "
                         "on the model's scaled target. Wheel: zoom, drag: pan, double-click: reset."));
    mLearningRate->setToolTip(tr("The learning rate the schedule set at each batch"));

    struct Style
    {
        QString name;
        QColor colour;
        double width;
    };
    const Style styles[] = {{tr("batch loss (raw)"), QColor(31, 119, 180, 55), 1.0},
                            {tr("batch loss (smoothed)"), QColor(31, 119, 180), 2.0},
                            {tr("epoch train loss"), QColor(20, 20, 20), 2.0},
                            {tr("validation loss"), QColor(214, 39, 40), 2.0}};
    for (const auto &style : styles) {
        QCPGraph *graph = mLoss->addGraph();
        graph->setName(style.name);
        graph->setPen(QPen(style.colour, style.width));
        graph->setAdaptiveSampling(true);
    }
    // The validation error in MiB, which a class can compare with another model's, on an axis of its own.
    QCPGraph *rmse = mLoss->addGraph(mLoss->xAxis, mLoss->yAxis2);
    rmse->setName(tr("validation RMSE (MiB, right)"));
    rmse->setPen(QPen(QColor(148, 103, 189), 2.0));
    rmse->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    QCPGraph *reference = mLoss->addGraph(mLoss->xAxis, mLoss->yAxis2);
    reference->setPen(QPen(QColor(255, 127, 14), 2.0, Qt::DashLine));
    reference->removeFromLegend();
    mLoss->yAxis2->setLabel(tr("validation RMSE (MiB)"));
    hideValidationFromLegend();
    mLoss->graph(EpochTrain)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    mLoss->graph(EpochValidation)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 6));
    mLoss->xAxis->setLabel(tr("epoch"));
    // An ensemble's networks are drawn behind the mean curves.
    mLoss->addLayer(QStringLiteral("members"), mLoss->layer(QStringLiteral("main")), QCustomPlot::limBelow);
    // Epochs are whole: ticks at whole numbers only (1, 2, 5, 10, … apart as the range grows).
    const auto epochTicks = [] {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
        ticker->setTickStep(1.0);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        return ticker;
    };
    mLoss->xAxis->setTicker(epochTicks());
    setLossName(tr("MSE"));
    mLoss->legend->setVisible(true);
    mLoss->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    mLoss->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mLoss->setMinimumHeight(260);

    QCPGraph *rate = mLearningRate->addGraph();
    rate->setName(tr("learning rate"));
    rate->setPen(QPen(QColor(44, 160, 44), 1.5));
    mLearningRate->xAxis->setLabel(tr("epoch"));
    mLearningRate->xAxis->setTicker(epochTicks());
    mLearningRate->yAxis->setLabel(tr("learning rate"));
    mLearningRate->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mLearningRate->setMinimumHeight(120);
    mLearningRate->setMaximumHeight(200);

    for (QCustomPlot *chart : {mLoss, mLearningRate}) {
        connect(chart, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
        // A drag or wheel means the user is looking somewhere: stop following new points.
        connect(chart, &QCustomPlot::mouseWheel, this, [this] { mFollow = false; });
        connect(chart, &QCustomPlot::mousePress, this, [this] { mFollow = false; });
    }
    connect(mLoss, &QCustomPlot::mouseMove, this, &LossPlot::showReadout);
    installChartExport(mLoss, QStringLiteral("loss"));
    installChartExport(mLearningRate, QStringLiteral("learning_rate"));

    mLogarithmic->setObjectName(QStringLiteral("logScale"));
    mLogarithmic->setToolTip(tr("Show the loss on a logarithmic axis, where late, small improvements stay visible"));
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
    layout->addWidget(mLearningRate, 1);
}

void LossPlot::clear()
{
    // The next training may have another number of networks, or one.
    for (const MemberCurves &curves : mMemberCurves) {
        mLoss->removeGraph(curves.train);
        mLoss->removeGraph(curves.validation);
    }
    mMemberCurves.clear();
    for (int graph = 0; graph < mLoss->graphCount(); ++graph)
        mLoss->graph(graph)->data()->clear();
    hideValidationFromLegend();
    mLoss->yAxis2->setVisible(std::isfinite(mReferenceRmse));
    mLearningRate->graph(0)->data()->clear();
    mSmoothedSum = 0.0;
    mSmoothedWeight = 0.0;
    mFollow = true;
    scheduleReplot();
}

void LossPlot::addBatch(double x, double loss, double learningRate)
{
    mLoss->graph(RawBatches)->addData(x, loss);
    mLoss->graph(SmoothedBatches)->addData(x, smoothedNext(loss));
    mLearningRate->graph(0)->addData(x, learningRate);
}

void LossPlot::addEpoch(double x, double trainLoss, double validationLoss)
{
    mLoss->graph(EpochTrain)->addData(x, trainLoss);
    if (validationLoss >= 0.0) {
        mLoss->graph(EpochValidation)->addData(x, validationLoss);
        mLoss->graph(EpochValidation)->addToLegend(); // nothing when it is there already
    }
}

void LossPlot::addMemberEpoch(int member, double x, double trainLoss, double validationLoss)
{
    if (member < 0)
        return;
    MemberCurves &curves = memberCurves(member);
    curves.train->addData(x, trainLoss);
    if (validationLoss >= 0.0) {
        curves.validation->addData(x, validationLoss);
        if (member == 0)
            curves.validation->addToLegend(); // nothing when it is there already
    }
}

LossPlot::MemberCurves &LossPlot::memberCurves(int member)
{
    while (static_cast<int>(mMemberCurves.size()) <= member) {
        // Thin and faint in the colours of the mean curves; the legend names the first only.
        MemberCurves curves;
        curves.train = mLoss->addGraph();
        curves.train->setName(tr("each network's epoch loss"));
        curves.train->setPen(QPen(QColor(20, 20, 20, 110), 1.0));
        curves.validation = mLoss->addGraph();
        curves.validation->setName(tr("each network's validation loss"));
        curves.validation->setPen(QPen(QColor(214, 39, 40, 110), 1.0));
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
    // A training without validation rows (the defaults, and the default and quick
    // presets, hold none out) draws no validation curves, so the legend names them only
    // once they have a point.
    mLoss->graph(EpochValidation)->removeFromLegend();
    mLoss->graph(ValidationRmse)->removeFromLegend();
}

void LossPlot::setLossName(const QString &name)
{
    mLoss->yAxis->setLabel(tr("%1 loss (scaled target)").arg(name));
}

void LossPlot::addValidationRmse(double x, double rmseMib)
{
    if (!std::isfinite(rmseMib))
        return;
    mLoss->graph(ValidationRmse)->addData(x, rmseMib);
    mLoss->graph(ValidationRmse)->addToLegend();
    mLoss->yAxis2->setVisible(true);
}

void LossPlot::setReferenceRmse(double rmseMib, const QString &name)
{
    mReferenceRmse = rmseMib;
    QCPGraph *reference = mLoss->graph(ReferenceRmse);
    reference->data()->clear();
    reference->setName(name);
    if (std::isfinite(rmseMib)) {
        reference->addToLegend();
        mLoss->yAxis2->setVisible(true);
    } else {
        reference->removeFromLegend();
    }
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
    if (std::isfinite(mReferenceRmse)) {
        bool found = false;
        const QCPRange epochs = mLoss->graph(SmoothedBatches)->getKeyRange(found);
        reference->addData(found ? std::min(0.0, epochs.lower) : 0.0, mReferenceRmse);
        reference->addData(found ? std::max(1.0, epochs.upper) : 1.0, mReferenceRmse);
    }
    if (mFollow) {
        mLoss->rescaleAxes();
        // A little room above and below, so the first and lowest points are not cut by the frame.
        if (mLoss->yAxis->scaleType() == QCPAxis::stLinear)
            mLoss->yAxis->scaleRange(1.08);
        mLoss->yAxis2->scaleRange(1.08);
        mLearningRate->rescaleAxes();
        mLearningRate->xAxis->setRange(mLoss->xAxis->range());
    }
    // The learning-rate chart keeps the loss chart's right edge, so both epoch axes line up
    // when the loss chart shows its right-hand (MiB) axis.
    QMargins margins = mLearningRate->axisRect()->margins();
    margins.setRight(mLoss->axisRect()->margins().right());
    mLearningRate->axisRect()->setAutoMargins(QCP::msLeft | QCP::msTop | QCP::msBottom);
    mLearningRate->axisRect()->setMargins(margins);
    mLoss->replot(QCustomPlot::rpQueuedReplot);
    mLearningRate->replot(QCustomPlot::rpQueuedReplot);
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
    if (logarithmic) {
        mLoss->yAxis->setScaleType(QCPAxis::stLogarithmic);
        mLoss->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    } else {
        mLoss->yAxis->setScaleType(QCPAxis::stLinear);
        mLoss->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    resetView();
}

void LossPlot::setSmoothing(double weight)
{
    mSmoothingWeight = std::clamp(weight, 0.0, 0.99);
    recomputeSmoothed();
    mLoss->graph(SmoothedBatches)->setVisible(mSmoothingWeight > 0.0);
    mLoss->graph(RawBatches)->setPen(QPen(QColor(31, 119, 180, mSmoothingWeight > 0.0 ? 55 : 255), 1.0));
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
    QSharedPointer<QCPGraphDataContainer> raw = mLoss->graph(RawBatches)->data();
    QVector<double> keys, values;
    keys.reserve(raw->size());
    values.reserve(raw->size());
    mSmoothedSum = 0.0;
    mSmoothedWeight = 0.0;
    for (auto it = raw->constBegin(); it != raw->constEnd(); ++it) {
        keys << it->key;
        values << smoothedNext(it->value);
    }
    mLoss->graph(SmoothedBatches)->setData(keys, values, true);
}

void LossPlot::showReadout(QMouseEvent *event)
{
    const double x = mLoss->xAxis->pixelToCoord(event->pos().x());
    QStringList parts{tr("epoch %1").arg(x, 0, 'f', 2)};
    const int graphs[] = {SmoothedBatches, EpochTrain, EpochValidation, ValidationRmse};
    for (int index : graphs) {
        QCPGraph *graph = mLoss->graph(index);
        if (graph->data()->isEmpty() || !graph->visible())
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
    return mLoss->graph(RawBatches)->dataCount();
}

int LossPlot::epochPointCount() const
{
    return mLoss->graph(EpochTrain)->dataCount();
}

} // namespace gpumem::ui
