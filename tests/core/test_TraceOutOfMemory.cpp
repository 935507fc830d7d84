// SPDX-License-Identifier: GPL-3.0-or-later
// A trace that runs out of this machine's memory says so, and why the batch had to be traced whole,
// instead of blaming the input shape.
#include "EstimateFixtures.h"
#include "RaisedInputError.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/ModelTracer.h"
#include "estimate/StepTracer.h"

#include <QTest>

#include <string>

namespace estimate = gpumem::estimate;

namespace {

// A model whose activation grows with the square of the batch, so that its small traces never
// align, on a machine where only batches up to 8 fit.
class SmallMachineTracer : public estimate::StepTracer
{
  public:
    const estimate::ModelSummary &summary() const override { return mSummary; }

    estimate::TaggedTrace trace(std::int64_t batchSize) const override
    {
        if (batchSize > 8)
            throw estimate::TraceOutOfMemory("model.pt", 0, 0,
                                             "batch " + std::to_string(batchSize) +
                                                 " does not fit in this machine's memory for a trace on the CPU");
        const auto square = static_cast<std::uint64_t>(batchSize * batchSize) << 20;
        return {batchSize,
                {{std::uint64_t{4} << 20, -1, estimate::Phase::Setup, estimate::Category::Parameters},
                 {square, -1, estimate::Phase::Forward, estimate::Category::Activations},
                 {square, 1, estimate::Phase::Backward, estimate::Category::Activations}}};
    }

  private:
    estimate::ModelSummary mSummary{std::uint64_t{4} << 20, 0, 1 << 20};
};

} // namespace

class TestTraceOutOfMemory : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // Issue 49: a direct trace that ran out of memory said "(check --input-shape)".
    void aDirectTraceThatRunsOutOfMemorySaysWhyItWasDirect()
    {
        estimate::EstimateRequest request;
        request.batchSizes = {64};
        const estimate::GpuProfile profile{"test", 80.0 * 1024.0, 300.0, 8.0, "test"};
        const gpumem::io::InputError error = gpumem::tests::raisedInputError(
            [&] { estimate::MemoryEstimator::estimate(SmallMachineTracer(), profile, request); });
        const std::string message = error.what();
        QVERIFY2(message.rfind("model.pt: batch 64 does not fit in this machine's memory", 0) == 0, message.c_str());
        QVERIFY2(message.find("it was traced whole because the small traces do not align (batch 1, 2 and 3: ") !=
                     std::string::npos,
                 message.c_str());
        QVERIFY2(message.find("--input-shape") == std::string::npos, message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
    }

    void aBatchLargerThanTheMachineIsNotBlamedOnTheShape()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer aborts on an allocation larger than it supports instead of failing it");
#endif
        const gpumem::tests::EstimateFixtures fixtures;
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(fixtures);
        estimate::EstimateConfiguration configuration;
        configuration.modelPath = fixtures.path("mlp.pt");
        configuration.inputShapes = {{20}};
        const estimate::ModelTracer tracer(configuration);
        // 10^12 rows of 20 floats: 80 TB, beyond any machine's memory and address space limits.
        const std::int64_t batch = 1'000'000'000'000;
        try {
            tracer.trace(batch);
            QFAIL("an 80 TB batch was traced");
        } catch (const estimate::TraceOutOfMemory &error) {
            QVERIFY2(error.message().rfind("batch 1000000000000 does not fit in this machine's memory", 0) == 0,
                     error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceOutOfMemory)
#include "test_TraceOutOfMemory.moc"
