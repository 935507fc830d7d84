// SPDX-License-Identifier: GPL-3.0-or-later
// What the CUDA libraries allocate that a CPU trace does not show: fused attention in
// place of the probabilities the CPU saves, and cuBLAS's workspaces and context only in
// a process that multiplies matrices. Sizes are computed by hand from the shapes.
#include "estimate/AttentionRecorder.h"
#include "estimate/GpuProfile.h"
#include "estimate/MatrixProductRecorder.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/ProfileCalibration.h"
#include "estimate/StepRecording.h"
#include "io/InputError.h"
#include "probe/TrackingAllocator.h"

#include <QTest>

#include <torch/torch.h>

#include <algorithm>

using namespace gpumem;

namespace {

// [rows, queries, width] float32 bytes.
std::uint64_t floatBytes(std::int64_t rows, std::int64_t queries, std::int64_t width)
{
    return static_cast<std::uint64_t>(rows * queries * width * 4);
}

// Attention as PyTorch 1.x's multi_head_attention_forward computes it, forward and
// backward, traced with the recorder on; returns the sizes the GPU gives blocks.
estimate::GpuBlockBytes traceAttention(std::int64_t rows, std::int64_t queries, std::int64_t keys, std::int64_t width,
                                       bool throughSoftmaxOfProduct)
{
    probe::TrackingAllocator allocator(true, 0);
    estimate::GpuBlockBytes gpuBytes;
    {
        estimate::TracingScope scope(allocator);
        const estimate::AttentionRecorder recorder(allocator, gpuBytes);
        const torch::Tensor q = torch::randn({rows, queries, width}).requires_grad_();
        const torch::Tensor k = torch::randn({rows, keys, width}).requires_grad_();
        const torch::Tensor v = torch::randn({rows, keys, width}).requires_grad_();
        torch::Tensor scores = torch::bmm(q, k.transpose(1, 2));
        if (!throughSoftmaxOfProduct)
            scores = scores * 2.0; // the softmax no longer normalises a product
        const torch::Tensor probabilities = torch::softmax(scores, -1);
        torch::bmm(probabilities, v).sum().backward();
    }
    return gpuBytes;
}

std::vector<std::uint64_t> sortedSizes(const estimate::GpuBlockBytes &gpuBytes)
{
    std::vector<std::uint64_t> sizes;
    for (const auto &[block, bytes] : gpuBytes)
        sizes.push_back(bytes);
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

estimate::GpuProfile profile()
{
    estimate::GpuProfile profile;
    profile.name = "test";
    profile.capacityMib = 80000;
    profile.contextMib = 760;
    profile.workspaceMib = 64;
    profile.cublasContextMib = 128;
    profile.source = "hand-made";
    return profile;
}

// One block of bytes that lives through the trace.
estimate::TaggedTrace traceOfOneBlock(std::uint64_t bytes, bool runsMatrixProducts)
{
    estimate::TaggedTrace trace;
    trace.batchSize = 1;
    trace.events.push_back({bytes, -1, estimate::Phase::Setup, estimate::Category::Parameters});
    trace.runsMatrixProducts = runsMatrixProducts;
    return trace;
}

} // namespace

class TestGpuLibraries : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void logSumExpPadsQueriesToTiles()
    {
        // ViT-B/16 at 224×224, one sample: 12 heads × 197 queries, padded to 224.
        QCOMPARE(estimate::fusedAttentionLogSumExpBytes(12, 197), std::uint64_t{12 * 224 * 4});
        QCOMPARE(estimate::fusedAttentionLogSumExpBytes(3, 32), std::uint64_t{3 * 32 * 4});
        QCOMPARE(estimate::fusedAttentionLogSumExpBytes(3, 33), std::uint64_t{3 * 64 * 4});
    }

    void attentionBecomesTheFusedKernelsBlocks()
    {
        // 6 rows (batch × heads), 40 queries and keys, 8 wide: the scores and, in
        // backward, the gradients of P and of the scores never exist; P becomes the
        // output (6 × 40 × 8 floats) and the log-sum-exp (6 × 64 floats).
        const auto gpuBytes = traceAttention(6, 40, 40, 8, true);
        const std::vector<std::uint64_t> expected = {0, 0, 0, floatBytes(6, 40, 8) + 6 * 64 * 4};
        QCOMPARE(sortedSizes(gpuBytes), expected);
    }

    void attentionWithMoreKeysThanQueries()
    {
        // Cross-attention: 10 queries over 50 keys, 4 wide; the output is [rows, queries, width].
        const auto gpuBytes = traceAttention(2, 10, 50, 4, true);
        const std::vector<std::uint64_t> expected = {0, 0, 0, floatBytes(2, 10, 4) + 2 * 32 * 4};
        QCOMPARE(sortedSizes(gpuBytes), expected);
    }

    void softmaxOfAnythingElseStays() { QVERIFY(traceAttention(6, 40, 40, 8, false).empty()); }

    void tagTraceResizesAndDropsBlocks()
    {
        estimate::RecordedSteps steps;
        steps.raw = {{0, 1000, false}, {1, 2000, false}, {1, 2000, true}, {0, 1000, true}};
        steps.marks = {{0, estimate::Phase::Forward}};
        steps.gpuBytes = {{0, 300}, {1, 0}};
        const estimate::TaggedTrace trace = estimate::tagTrace(4, {}, steps);
        QCOMPARE(trace.events.size(), std::size_t{2});
        QCOMPARE(trace.events[0].bytes, std::uint64_t{300});
        QVERIFY(trace.events[1].isRelease());
        QCOMPARE(trace.events[1].bytes, std::uint64_t{300});
        QCOMPARE(trace.events[1].allocation, std::int64_t{0});
    }

    void matrixProductsAreSeenInTheirOwnRight()
    {
        torch::NoGradGuard noGradients;
        {
            const estimate::MatrixProductRecorder products;
            torch::nn::Linear linear(4, 3);
            linear->forward(torch::randn({2, 4}));
            QVERIFY(products.ranMatrixProduct());
        }
        {
            // A float64 convolution runs LibTorch's slow_conv2d, which multiplies matrices
            // inside; cuDNN runs the convolution whole on a GPU.
            const estimate::MatrixProductRecorder products;
            torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 4, 3));
            conv->to(torch::kFloat64);
            torch::relu(conv->forward(torch::randn({2, 3, 8, 8}, torch::kFloat64)));
            QVERIFY(!products.ranMatrixProduct());
        }
    }

    void withoutMatrixProductsNoCublasMemory()
    {
        const estimate::GpuProfile card = profile();
        const auto with = estimate::MemoryEstimator::estimateOf(traceOfOneBlock(1 << 20, true), card);
        QCOMPARE(with.workspaceMib, 64.0);
        QCOMPARE(with.contextMib, 760.0);
        const auto without = estimate::MemoryEstimator::estimateOf(traceOfOneBlock(1 << 20, false), card);
        QCOMPARE(without.workspaceMib, 0.0);
        QCOMPARE(without.contextMib, 632.0);
        QCOMPARE(with.deviceTotalMib() - without.deviceTotalMib(), 64.0 + 128.0);
    }

    void profileReadsTheCublasPart()
    {
        const std::string base =
            R"({"name": "x", "capacity_mib": 1000, "context_mib": 300, "workspace_mib": 16, "source": "s")";
        QCOMPARE(estimate::parseGpuProfile(base + "}", "p.json").cublasContextMib, 0.0);
        const auto parsed = estimate::parseGpuProfile(base + R"(, "cublas_context_mib": 16})", "p.json");
        QCOMPARE(parsed.cublasContextMib, 16.0);
        QCOMPARE(estimate::parseGpuProfile(estimate::gpuProfileJson(parsed), "p.json").cublasContextMib, 16.0);
        QVERIFY_EXCEPTION_THROWN(estimate::parseGpuProfile(base + R"(, "cublas_context_mib": 301})", "p.json"),
                                 io::InputError);
        QVERIFY_EXCEPTION_THROWN(estimate::parseGpuProfile(base + R"(, "cublas_context_mib": "16"})", "p.json"),
                                 io::InputError);
        // A measured context smaller than the profile's cuBLAS part takes it down too.
        QCOMPARE(estimate::withContextMib(profile(), 100).cublasContextMib, 100.0);
    }

    void shippedProfilesCarryCublasMemoryByWorkspaceSetting()
    {
        // Measured on an H200: cuBLAS takes 64 MiB of its own per handle beside a 32 MiB
        // workspace (:4096:8, compute capability 9.0, and 10.x and 12.x from PyTorch 2.12) and
        // 8 MiB beside an 8.125 MiB one (:4096:2:16:8, every other card); a training step holds
        // two handles. A profile's two workspaces tell which setting its card gets.
        const std::vector<std::string> names = estimate::gpuProfileNames();
        QVERIFY(names.size() >= 10);
        for (const std::string &name : names) {
            const estimate::GpuProfile card = estimate::findGpuProfile(name);
            const double perHandle = card.workspaceMib == 64.0 ? 64.0 : 8.0;
            QVERIFY2(card.workspaceMib == 64.0 || card.workspaceMib == 16.0, name.c_str());
            QVERIFY2(card.cublasContextMib == 2 * perHandle, name.c_str());
        }
    }

    void calibrationHoldsTheCublasPart()
    {
        // Two nvidia-smi rows on a card whose context is 700 and workspace 64 (held):
        // one with matrix products (500 + 700 + 64) and one without (500 + 700 - 128).
        using estimate::MeasuredQuantity;
        const std::vector<estimate::CalibrationPoint> points = {
            {500.0, 1264.0, MeasuredQuantity::DeviceTotal, true},
            {500.0, 1072.0, MeasuredQuantity::DeviceTotal, false},
        };
        const estimate::ProfileFit fit = estimate::fitProfileConstants(points, {760.0, 64.0, 128.0});
        QVERIFY(fit.contextFitted);
        QVERIFY(!fit.workspaceFitted);
        QVERIFY(std::abs(fit.constants.contextMib - 700.0) < 1e-9);
        QVERIFY(fit.rmsResidualAfterMib < 1e-9);
        // A reserved reading without matrix products says nothing of the workspace.
        const estimate::ProfileFit reservedOnly =
            estimate::fitProfileConstants({{500.0, 520.0, MeasuredQuantity::Reserved, false}}, {760.0, 64.0, 128.0});
        QVERIFY(!reservedOnly.workspaceFitted);
        QCOMPARE(reservedOnly.constants.workspaceMib, 64.0);
    }
};

QTEST_APPLESS_MAIN(TestGpuLibraries)
#include "test_GpuLibraries.moc"
