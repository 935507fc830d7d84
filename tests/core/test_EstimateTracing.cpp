// SPDX-License-Identifier: GPL-3.0-or-later
// Tracing a TorchScript model's training step: the bytes of each category, the
// workspaces of its kernels, and the one-line messages of a model that cannot be traced.
#include "DataTables.h"
#include "EstimateFixtures.h"
#include "EstimateRequests.h"
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "TraceTransients.h"

#include "estimate/MemoryEstimator.h"
#include "estimate/ModelTracer.h"
#include "estimate/TraceExtrapolation.h"
#include "estimate/TraceReplay.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace gpumem;
using estimate::Category, estimate::Phase, estimate::TaggedEvent, estimate::TaggedTrace, tests::configurationFor,
    tests::testProfile;

namespace {

// Requested bytes of the blocks still live at the end of a trace, per category.
estimate::CategoryBytes liveAtEnd(const TaggedTrace &trace)
{
    std::vector<bool> released(trace.events.size(), false);
    for (const auto &event : trace.events)
        if (event.isRelease())
            released[static_cast<std::size_t>(event.allocation)] = true;
    estimate::CategoryBytes live{};
    for (std::size_t i = 0; i < trace.events.size(); ++i)
        if (!trace.events[i].isRelease() && !released[i])
            live[static_cast<std::size_t>(trace.events[i].category)] += trace.events[i].bytes;
    return live;
}

} // namespace

class TestEstimateTracing : public QObject, private tests::UsesEstimateFixtures
{
    Q_OBJECT

  private:
    // The tracer of the current row's fixture model (column "model") on the
    // sample shape of column "shape".
    estimate::ModelTracer rowTracer(const std::string &optimizer = "adam") const
    {
        const auto [model, shape] = fetchColumns<QString, QString>("model", "shape");
        return estimate::ModelTracer(configurationFor(mFixtures.path((model.toStdString() + ".pt").c_str()),
                                                      estimate::parseSampleShape(shape.toStdString(), "--input-shape"),
                                                      optimizer));
    }

  private Q_SLOTS:
    void parameterBytesAreNumelTimesElementSize_data()
    {
        addColumns<QString, QString>("model", "shape");
        addRow("mlp", "mlp", "20");
        addRow("cnn", "cnn", "3,16,16");
    }
    void parameterBytesAreNumelTimesElementSize()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        QFETCH(QString, model);
        const std::string name = model.toStdString();
        const estimate::ModelTracer tracer = rowTracer();
        QCOMPARE(static_cast<qint64>(tracer.summary().parameterBytes), mFixtures.size(name.c_str(), "parameter_bytes"));
        QCOMPARE(static_cast<qint64>(tracer.summary().bufferBytes), mFixtures.size(name.c_str(), "buffer_bytes"));
        QCOMPARE(static_cast<qint64>(tracer.summary().parameterCount), mFixtures.size(name.c_str(), "parameter_count"));
    }

    void categoriesHoldGradientsAndOptimizerState_data()
    {
        addColumns<QString, QString, QString, int>("model", "shape", "optimizer", "stateCopies");
        addRow("mlp adam", "mlp", "20", "adam", 2);
        addRow("mlp adamw", "mlp", "20", "adamw", 2);
        addRow("mlp sgd_momentum", "mlp", "20", "sgd_momentum", 1);
        addRow("mlp sgd", "mlp", "20", "sgd", 0);
        addRow("cnn adam", "cnn", "3,16,16", "adam", 2);
    }
    void categoriesHoldGradientsAndOptimizerState()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const auto [model, optimizer, stateCopies] =
            fetchColumns<QString, QString, int>("model", "optimizer", "stateCopies");
        const std::string name = model.toStdString();
        const estimate::ModelTracer tracer = rowTracer(optimizer.toStdString());
        const TaggedTrace trace = tracer.trace(4);
        const estimate::CategoryBytes live = liveAtEnd(trace);
        const auto parameterBytes = static_cast<std::uint64_t>(mFixtures.size(name.c_str(), "parameter_bytes"));
        const auto bufferBytes = static_cast<std::uint64_t>(mFixtures.size(name.c_str(), "buffer_bytes"));
        // After the last step: one gradient per parameter, the optimizer's
        // state (Adam: exp_avg and exp_avg_sq; momentum: one buffer).
        QCOMPARE(tests::bytesOf(live, Category::Parameters), parameterBytes + bufferBytes);
        QCOMPARE(tests::bytesOf(live, Category::Gradients), parameterBytes);
        QCOMPARE(tests::bytesOf(live, Category::OptimizerState),
                 parameterBytes * static_cast<std::uint64_t>(stateCopies));
        // The phases come in training order. SGD updates in place, and with momentum
        // allocates its buffer only in the first step; Adam's denominators are new
        // at every step.
        QCOMPARE(trace.events.front().phase, Phase::Setup);
        QCOMPARE(trace.events.back().phase, optimizer.startsWith("adam") ? Phase::Optimizer : Phase::Backward);
        // The same batch gives the same trace.
        const TaggedTrace again = tracer.trace(4);
        QCOMPARE(again.events.size(), trace.events.size());
    }

    void extrapolationAgreesWithDirectTrace_data()
    {
        addColumns<QString, QString, int>("model", "shape", "smallBatch");
        addRow("mlp from 1 and 2", "mlp", "20", 1);
        addRow("mlp from 2 and 4", "mlp", "20", 2);
        // On the CPU the CNN allocates differently at batch 1 (events do not align), so its traces start at 2.
        addRow("cnn from 2 and 4", "cnn", "3,16,16", 2);
    }
    void extrapolationAgreesWithDirectTrace()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const estimate::ModelTracer tracer = rowTracer();
        std::string why;
        QFETCH(int, smallBatch);
        const auto affine = estimate::AffineTrace::fit(tracer.trace(smallBatch), tracer.trace(2 * smallBatch), why);
        QVERIFY2(affine.has_value(), why.c_str());
        constexpr std::int64_t batch = 48;
        const estimate::ReplayResult extrapolated = estimate::replayTrace(affine->at(batch));
        const estimate::ReplayResult direct = estimate::replayTrace(tracer.trace(batch));
        const auto within = [](std::uint64_t a, std::uint64_t b) {
            return std::abs(static_cast<double>(a) - static_cast<double>(b)) <= 0.01 * static_cast<double>(b);
        };
        QVERIFY2(within(extrapolated.peakAllocatedBytes, direct.peakAllocatedBytes),
                 qPrintable(QString("%1 vs %2").arg(extrapolated.peakAllocatedBytes).arg(direct.peakAllocatedBytes)));
        QVERIFY2(within(extrapolated.peakReservedBytes, direct.peakReservedBytes),
                 qPrintable(QString("%1 vs %2").arg(extrapolated.peakReservedBytes).arg(direct.peakReservedBytes)));
    }

    void torchScriptConvolutionsHoldTheirWorkspaces()
    {
        // Two 3×3 convolutions of 8 channels over [2, 8, 16, 16]: input and output 16 KiB
        // of float32 each, the filter 2,304 bytes. Forward and the input's gradient take
        // all three (35,072 bytes), the filter's gradient 14 filters more (67,328); the
        // first convolution's input (the batch) needs no gradient.
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        estimate::EstimateConfiguration configuration =
            configurationFor(mFixtures.path("convolutions.pt"), {8, 16, 16});
        configuration.loss = "sum";
        const TaggedTrace trace = estimate::ModelTracer(configuration).trace(2);
        std::map<std::pair<Phase, std::uint64_t>, int> workspaces; // by phase and size
        for (const std::size_t i : tests::transientAllocations(trace))
            ++workspaces[{trace.events[i].phase, trace.events[i].bytes}];
        // Two steps.
        QCOMPARE((workspaces[{Phase::Forward, 35072}]), 4);
        QCOMPARE((workspaces[{Phase::Backward, 35072}]), 2);
        QCOMPARE((workspaces[{Phase::Backward, 67328}]), 4);
        QVERIFY(!trace.runsMatrixProducts);
        QVERIFY(estimate::ModelTracer(configurationFor(mFixtures.path("mlp.pt"), {20})).trace(2).runsMatrixProducts);
        // Without matrix products the estimate counts no cuBLAS workspace, and says so.
        estimate::EstimateRequest request;
        request.batchSizes = {4};
        const estimate::EstimateResult result =
            estimate::MemoryEstimator::estimate(estimate::ModelTracer(configuration), testProfile(80000), request);
        QCOMPARE(result.estimates.front().workspaceMib, 0.0);
        QCOMPARE(result.notes.size(), std::size_t{1});
        QVERIFY(result.notes.front().find("no cuBLAS handle") != std::string::npos);
    }

    void attentionRunsAsTheFusedKernelUnlessMath()
    {
        // Batch 4, 2 heads, 12 tokens: the probabilities are [8, 12, 12] float32 (4,608
        // bytes), the scores before them the same; the fused kernel keeps neither.
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        estimate::EstimateConfiguration configuration = configurationFor(mFixtures.path("attention.pt"), {12, 16});
        const auto squareBlocks = [](const TaggedTrace &trace) {
            return std::count_if(trace.events.begin(), trace.events.end(), [](const TaggedEvent &event) {
                return !event.isRelease() && event.phase == Phase::Forward && event.bytes == 8 * 12 * 12 * 4;
            });
        };
        configuration.attention = "math";
        const TaggedTrace math = estimate::ModelTracer(configuration).trace(4);
        configuration.attention = "efficient";
        const TaggedTrace fused = estimate::ModelTracer(configuration).trace(4);
        QCOMPARE(squareBlocks(math), 4); // scores and probabilities, two steps
        QCOMPARE(squareBlocks(fused), 0);
        QVERIFY(estimate::peakRequestedBytes(fused) < estimate::peakRequestedBytes(math));
    }

    void rejectedInputShapeGivesTheModelsMessageOnOneLine()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const estimate::ModelTracer tracer(configurationFor(mFixtures.path("mlp.pt"), {7}));
        const std::string message = tests::raisedMessage([&] { tracer.trace(2); });
        QVERIFY2(!message.empty(), "a 7-feature input to a 20-feature model must be refused");
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
        QVERIFY2(message.find("mlp.pt") != std::string::npos, message.c_str());
        QVERIFY2(message.find("shapes cannot be multiplied") != std::string::npos, message.c_str());
    }

    void notTorchScriptIsOneLine()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        QTemporaryDir folder;
        const QString garbage = folder.filePath("garbage.pt");
        QVERIFY(writeText(garbage, std::string("not a model at all\n\x01\x02", 21)));
        for (const std::string &path :
             {garbage.toStdString(), mFixtures.path("weights.pt"), folder.filePath("missing.pt").toStdString()}) {
            const std::string message =
                tests::raisedMessage([&] { estimate::ModelTracer tracer(configurationFor(path, {20})); });
            QVERIFY2(!message.empty(), path.c_str());
            QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
            QVERIFY2(message.rfind(path, 0) == 0, message.c_str());
        }
    }

    void newerFileFormatNamesBothVersions()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        // The same model with its archive's version record raised past what LibTorch reads.
        QTemporaryDir folder;
        const QString newer = folder.filePath("newer.pt");
        QProcess python;
        python.start("/usr/bin/python3",
                     {"-c",
                      "import sys, zipfile\n"
                      "source = zipfile.ZipFile(sys.argv[1])\n"
                      "with zipfile.ZipFile(sys.argv[2], 'w') as target:\n"
                      "    for item in source.infolist():\n"
                      "        data = source.read(item.filename)\n"
                      "        target.writestr(item, b'99\\n' if item.filename.endswith('/version') else data)\n",
                      QString::fromStdString(mFixtures.path("mlp.pt")), newer});
        QVERIFY(python.waitForFinished(60000) && python.exitCode() == 0);
        const std::string message =
            tests::raisedMessage([&] { estimate::ModelTracer tracer(configurationFor(newer.toStdString(), {20})); });
        QVERIFY2(message.find("newer PyTorch") != std::string::npos, message.c_str());
        QVERIFY2(message.find("file format version 99") != std::string::npos, message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestEstimateTracing)
#include "test_EstimateTracing.moc"
