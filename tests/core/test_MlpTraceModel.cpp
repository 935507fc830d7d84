// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/InputError.h"
#include "probe/MlpTraceModel.h"

#include <QTest>

#include <cmath>

using gpumem::data::LayerTuple, gpumem::probe::AllocationTrace, gpumem::probe::MlpTraceModel;

namespace {

double peakLive(const AllocationTrace &trace)
{
    double live = 0.0;
    double peak = 0.0;
    for (const auto &event : trace) {
        live += event.release ? -static_cast<double>(event.bytes) : static_cast<double>(event.bytes);
        peak = std::max(peak, live);
    }
    return peak;
}

} // namespace

class TestMlpTraceModel : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void oneLinearLayerByHand()
    {
        // Linear(2 → 2) (6 parameters), batch 1, float32, plain SGD, one step:
        // W 16 + b 8 + input 8 + labels 8 + output 8 + log_softmax 8 + loss 4 +
        // total weight 4 = 64; backward adds the seed 4 and the nll gradient 8
        // (76), frees seed and total weight (68), adds the log_softmax gradient 8
        // (76), frees the nll gradient and log_softmax (60), then the weight and
        // bias gradients 16 + 8: 84 bytes at the peak.
        const std::vector<LayerTuple> layers = {{"linear", {2, 6}}};
        const AllocationTrace trace = MlpTraceModel::trace(layers, 1, "sgd", 4, 1);
        QCOMPARE(peakLive(trace), 84.0);
    }

    void adamHoldsTwoStatesAndATemporary()
    {
        // The same network with Adam: after backward (60 + 24 − 8 = 76 bytes live),
        // exp_avg and exp_avg_sq for W and b (2 × 24) and one temporary per
        // parameter tensor (24): 76 + 48 + 24 = 148.
        const std::vector<LayerTuple> layers = {{"linear", {2, 6}}};
        QCOMPARE(peakLive(MlpTraceModel::trace(layers, 1, "adam", 4, 1)), 148.0);
    }

    void reluKeepsItsOutputAndGeluItsInput()
    {
        // Linear(4 → 8), activation, Linear(8 → 2), batch 10: with ReLU the
        // first linear's output (8 × 10 × 4 = 320 bytes) dies after ReLU; with
        // GELU it is kept for backward, so GELU's forward holds 320 bytes more.
        const std::vector<LayerTuple> relu = {{"linear", {8, 40}}, {"ReLU", {8, 0}}, {"linear", {2, 18}}};
        const std::vector<LayerTuple> gelu = {{"linear", {8, 40}}, {"GELU", {8, 0}}, {"linear", {2, 18}}};
        const double reluPeak = peakLive(MlpTraceModel::trace(relu, 10, "sgd", 4, 1));
        const double geluPeak = peakLive(MlpTraceModel::trace(gelu, 10, "sgd", 4, 1));
        QVERIFY(geluPeak > reluPeak);
    }

    void needsALinearFirstLayer()
    {
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, MlpTraceModel::trace({{"ReLU", {8, 0}}}, 4, "sgd", 4));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, MlpTraceModel::trace({}, 4, "sgd", 4));
    }

    void refusesTensorsNoGpuHolds()
    {
        // 1e300 activations a sample: the sizes of a hostile file, an error and not an
        // undefined conversion; 1e15 × 4 bytes is still a number the simulation counts.
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError,
                                 MlpTraceModel::trace({{"linear", {1e300, 2e300}}}, 4, "sgd", 4));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError,
                                 MlpTraceModel::trace({{"linear", {8, 72}}, {"ReLU", {std::nan(""), 0}}}, 4, "sgd", 4));
        const AllocationTrace huge = MlpTraceModel::trace({{"linear", {1e15, 2e15}}}, 1, "sgd", 4, 1);
        QVERIFY(peakLive(huge) >= 4e15);
    }
};

QTEST_GUILESS_MAIN(TestMlpTraceModel)
#include "test_MlpTraceModel.moc"
