// SPDX-License-Identifier: GPL-3.0-or-later
// cuDNN's convolution workspaces in a CPU trace: the size rule on hand-computed shapes,
// the recorder that adds one transient block per convolution backward to the trace, and
// leaves out what the CPU kernels allocate and free within a call.
#include "DataTables.h"
#include "estimate/ConvolutionWorkspace.h"
#include "estimate/ConvolutionWorkspaceRecorder.h"
#include "estimate/StepRecording.h"
#include "probe/TrackingAllocator.h"

#include <QTest>

#include <torch/torch.h>

#include <algorithm>

using gpumem::estimate::ConvolutionCall;
using gpumem::estimate::cudnnConvolutionWorkspaceBytes;

Q_DECLARE_METATYPE(ConvolutionCall)

namespace {

// float32 bytes of a [batch, channels, side, side] tensor.
std::uint64_t imageBytes(std::int64_t batch, std::int64_t channels, std::int64_t side)
{
    return static_cast<std::uint64_t>(batch * channels * side * side * 4);
}

ConvolutionCall call(std::int64_t inputChannels, std::int64_t groups, std::int64_t kernel, std::int64_t stride,
                     std::uint64_t inputBytes, std::uint64_t outputBytes)
{
    return {inputChannels, groups, {kernel, kernel}, {stride, stride}, inputBytes, outputBytes};
}

// The sizes of the blocks that the trace allocates and releases at once, in order.
std::vector<std::uint64_t> transientBlocks(const gpumem::probe::AllocationTrace &trace)
{
    std::vector<std::uint64_t> sizes;
    for (std::size_t i = 0; i + 1 < trace.size(); ++i)
        if (!trace[i].release && trace[i + 1].release && trace[i + 1].block == trace[i].block)
            sizes.push_back(trace[i].bytes);
    return sizes;
}

// One forward and backward pass of conv over a [2, channels, 8, 8] input of dtype that
// needs its gradient, traced with the recorder on: the raw trace and the blocks the
// recorder resized.
gpumem::estimate::RecordedSteps recordConvolution(torch::nn::Conv2d &conv, std::int64_t channels,
                                                  torch::Dtype dtype = torch::kFloat32)
{
    gpumem::probe::TrackingAllocator allocator(true, 0);
    gpumem::estimate::RecordedSteps recorded;
    {
        gpumem::estimate::TracingScope scope(allocator);
        const gpumem::estimate::ConvolutionWorkspaceRecorder recorder(allocator, recorded.gpuBytes);
        const torch::Tensor input = torch::randn({2, channels, 8, 8}, torch::dtype(dtype)).requires_grad_();
        conv->forward(input).sum().backward();
    }
    recorded.raw = allocator.trace();
    return recorded;
}

// The transient blocks of conv's pass over a [2, channels, 8, 8] input.
std::vector<std::uint64_t> traceConvolution(torch::nn::Conv2d &conv, std::int64_t channels)
{
    return transientBlocks(recordConvolution(conv, channels).raw);
}

// The pass of a 16→32 3×3 convolution (padding 1) over a [2, 16, 8, 8] input of dtype as a
// GPU allocates it (tagTrace, as the estimate tags it): each allocation's bytes, each
// release's negated, the blocks the GPU never allocates left out.
std::vector<std::int64_t> gpuTraceOfConvolution(torch::Dtype dtype)
{
    torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
    conv->to(dtype);
    const gpumem::estimate::RecordedSteps recorded = recordConvolution(conv, 16, dtype);
    std::vector<std::int64_t> sizes;
    for (const gpumem::estimate::TaggedEvent &event : gpumem::estimate::tagTrace(2, {}, recorded).events) {
        const auto bytes = static_cast<std::int64_t>(event.bytes);
        sizes.push_back(event.isRelease() ? -bytes : bytes);
    }
    return sizes;
}

} // namespace

class TestConvolutionWorkspace : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void sizeRule_data()
    {
        addColumns<ConvolutionCall, qulonglong>("call", "bytes");
        // vgg16's second convolution, 64→64, 3×3 at 224×224, batch 128: input and output
        // 1,568 MiB each; the H200 asked for 3,136.1 MiB forward.
        const std::uint64_t vggMap = imageBytes(128, 64, 224);
        QCOMPARE(vggMap, std::uint64_t{1568} << 20);
        addRow("dense 3x3", call(64, 1, 3, 1, vggMap, vggMap), qulonglong(2 * vggMap));
        // ResNet's stem, 3→64, 7×7 at stride 2: 73.5 + 392 MiB (the H200: 465.5).
        addRow("stem at stride 2", call(3, 1, 7, 2, imageBytes(128, 3, 224), imageBytes(128, 64, 112)),
               qulonglong(imageBytes(128, 3, 224) + imageBytes(128, 64, 112)));
        // A 1×1 convolution at stride 2 (a ResNet shortcut) copies too.
        addRow("1x1 at stride 2", call(256, 1, 1, 2, imageBytes(8, 256, 56), imageBytes(8, 512, 28)),
               qulonglong(imageBytes(8, 256, 56) + imageBytes(8, 512, 28)));
        // None: 1×1 at stride 1, depthwise, and an image's three channels at stride 1.
        addRow("1x1 at stride 1", call(256, 1, 1, 1, imageBytes(8, 256, 56), imageBytes(8, 64, 56)), qulonglong(0));
        addRow("depthwise", call(96, 96, 3, 1, imageBytes(8, 96, 56), imageBytes(8, 96, 56)), qulonglong(0));
        addRow("three channels", call(3, 1, 3, 1, imageBytes(8, 3, 224), imageBytes(8, 64, 224)), qulonglong(0));
        // Grouped but not depthwise (ResNeXt, RegNet): cuDNN runs it, with a workspace.
        addRow("grouped", call(64, 8, 3, 1, imageBytes(8, 64, 56), imageBytes(8, 64, 56)),
               qulonglong(2 * imageBytes(8, 64, 56)));
    }
    void sizeRule()
    {
        QFETCH(ConvolutionCall, call);
        QFETCH(qulonglong, bytes);
        QCOMPARE(qulonglong(cudnnConvolutionWorkspaceBytes(call)), bytes);
    }

    void backwardAddsOneBlock()
    {
        // 16→32 channels, 3×3, padding 1, batch 2 at 8×8: input 8,192 bytes, output
        // 16,384; the workspace is their sum, once, in backward (forward calls are not
        // recorded).
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
        const std::vector<std::uint64_t> sizes = traceConvolution(conv, 16);
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{8192 + 16384}), std::ptrdiff_t{1});
    }

    void stridedOutputIsComputedFromTheShapes()
    {
        // 16→32, 3×3 at stride 2 without padding: (8 − 3) / 2 + 1 = 3, an output of
        // 2 × 32 × 3 × 3 × 4 = 2,304 bytes beside the 8,192 of the input.
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).stride(2));
        const std::vector<std::uint64_t> sizes = traceConvolution(conv, 16);
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{8192 + 2304}), std::ptrdiff_t{1});
    }

    void pointwiseConvolutionAddsNothing()
    {
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 1));
        const std::vector<std::uint64_t> sizes = traceConvolution(conv, 16);
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{8192 + 16384}), std::ptrdiff_t{0});
    }

    void leavesOutTheCpuKernelsScratch()
    {
        // float64 runs LibTorch's slow convolution, whose forward im2col columns for a
        // 16→32 3×3 filter over batch 2 at 8×8 are 2 × (16 × 3 × 3) × 64 float64 =
        // 147,456 bytes; float32 runs oneDNN, which allocates other scratch. cuDNN makes
        // neither: with both left out, the two traces are the same blocks, float64's twice
        // the size (the workspace too, as it is the input's and the output's bytes).
        const std::vector<std::int64_t> single = gpuTraceOfConvolution(torch::kFloat32);
        const std::vector<std::int64_t> doubled = gpuTraceOfConvolution(torch::kFloat64);
        QCOMPARE(std::count(doubled.begin(), doubled.end(), std::int64_t{147456}), std::ptrdiff_t{0});
        std::vector<std::int64_t> expected;
        for (const std::int64_t bytes : single)
            expected.push_back(2 * bytes);
        QCOMPARE(doubled, expected);
        // The output (2 × 32 × 8 × 8 float64, 32,768 bytes) and the workspace (8,192 ×
        // 2 + 16,384 × 2 bytes) stay.
        QVERIFY(std::count(doubled.begin(), doubled.end(), std::int64_t{32768}) >= 1);
        QCOMPARE(std::count(doubled.begin(), doubled.end(), std::int64_t{2 * (8192 + 16384)}), std::ptrdiff_t{1});
    }

    void recordsNothingOnceGone()
    {
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
        gpumem::probe::TrackingAllocator allocator(true, 0);
        {
            gpumem::estimate::TracingScope scope(allocator);
            {
                gpumem::estimate::GpuBlockBytes gpuBytes;
                const gpumem::estimate::ConvolutionWorkspaceRecorder recorder(allocator, gpuBytes);
            }
            conv->forward(torch::randn({2, 16, 8, 8}).requires_grad_()).sum().backward();
        }
        const std::vector<std::uint64_t> sizes = transientBlocks(allocator.trace());
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{8192 + 16384}), std::ptrdiff_t{0});
    }
};

QTEST_GUILESS_MAIN(TestConvolutionWorkspace)
#include "test_ConvolutionWorkspace.moc"
