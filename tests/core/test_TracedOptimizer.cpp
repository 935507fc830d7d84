// SPDX-License-Identifier: GPL-3.0-or-later
// The optimizer steps of a trace allocate what PyTorch 2's CUDA implementations
// allocate, checked on two parameters of 1,000 and 3,000 float32 elements (4,000 and
// 12,000 bytes) whose gradients exist before the step.
#include "DataTables.h"
#include "estimate/StepRecording.h"
#include "estimate/TracedOptimizer.h"
#include "io/InputError.h"
#include "probe/TrackingAllocator.h"

#include <QTest>

#include <torch/torch.h>

using gpumem::estimate::TracedOptimizer;

namespace {

// The bytes live after two steps, and the most live at once, of the blocks the
// steps allocate (the parameters and gradients are made before).
struct StepBytes
{
    std::uint64_t liveAfter = 0;
    std::uint64_t peak = 0;
};

qulonglong byteCount(int count)
{
    return static_cast<qulonglong>(count);
}

StepBytes twoSteps(const std::string &optimizer, const std::string &implementation)
{
    std::vector<torch::Tensor> parameters = {torch::zeros({1000}), torch::zeros({30, 100})};
    for (auto &parameter : parameters)
        parameter.mutable_grad() = torch::ones_like(parameter);
    gpumem::probe::TrackingAllocator allocator(false, 0);
    StepBytes bytes;
    {
        gpumem::estimate::TracingScope scope(allocator);
        TracedOptimizer traced(optimizer, implementation, parameters);
        traced.step();
        traced.step();
        bytes.liveAfter = allocator.liveBytes();
        bytes.peak = allocator.peakBytes();
    }
    return bytes;
}

} // namespace

class TestTracedOptimizer : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void allocatesAsPyTorchOnCuda_data()
    {
        addColumns<QString, QString, qulonglong, qulonglong>("optimizer", "implementation", "state", "peak");
        // Adam's state is exp_avg and exp_avg_sq: 2 × 16,000 bytes.
        // foreach: every denominator at once, one more copy of the parameters.
        addRow("adam foreach", "adam", "foreach", byteCount(32000), byteCount(32000 + 16000));
        addRow("adamw foreach", "adamw", "foreach", byteCount(32000), byteCount(32000 + 16000));
        // fused: no temporaries; a float32 step count per parameter on the device.
        addRow("adam fused", "adam", "fused", byteCount(32000 + 2 * 4), byteCount(32000 + 2 * 4));
        // for_loop: the square root and the quotient of one parameter at a time.
        addRow("adam for_loop", "adam", "for_loop", byteCount(32000), byteCount(32000 + 2 * 12000));
        // SGD: momentum's buffer is a clone of the gradient in every implementation.
        for (const char *implementation : {"foreach", "fused", "for_loop"}) {
            addRow(("sgd_momentum " + std::string(implementation)).c_str(), "sgd_momentum", implementation,
                   byteCount(16000), byteCount(16000));
            addRow(("sgd " + std::string(implementation)).c_str(), "sgd", implementation, byteCount(0), byteCount(0));
        }
    }
    void allocatesAsPyTorchOnCuda()
    {
        QFETCH(QString, optimizer);
        QFETCH(QString, implementation);
        QFETCH(qulonglong, state);
        QFETCH(qulonglong, peak);
        const StepBytes bytes = twoSteps(optimizer.toStdString(), implementation.toStdString());
        QCOMPARE(qulonglong(bytes.liveAfter), state);
        QCOMPARE(qulonglong(bytes.peak), peak);
    }

    void refusesUnknownNames()
    {
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, TracedOptimizer("adagrad", "foreach", {}));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, TracedOptimizer("adam", "capturable", {}));
    }
};

QTEST_GUILESS_MAIN(TestTracedOptimizer)
#include "test_TracedOptimizer.moc"
