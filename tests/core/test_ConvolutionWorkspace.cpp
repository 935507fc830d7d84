// SPDX-License-Identifier: GPL-3.0-or-later
// cuDNN's convolution workspaces in a CPU trace: the size rule on hand-computed shapes,
// the recorder that adds the workspaces of each convolution's passes to the trace, and
// leaves out what the CPU kernels allocate and free within a call.
#include "DataTables.h"
#include "TraceTransients.h"
#include "estimate/ConvolutionWorkspace.h"
#include "estimate/ConvolutionWorkspaceRecorder.h"
#include "estimate/StepRecording.h"
#include "estimate/TraceReplay.h"
#include "probe/TrackingAllocator.h"

#include <QTest>

#include <torch/torch.h>

#include <algorithm>

using gpumem::estimate::ConvolutionCall;
using gpumem::estimate::cudnnConvolutionWorkspaces;

Q_DECLARE_METATYPE(ConvolutionCall)

namespace {

// float32 bytes of a [batch, channels, side, side] tensor.
std::uint64_t imageBytes(std::int64_t batch, std::int64_t channels, std::int64_t side)
{
    return static_cast<std::uint64_t>(batch * channels * side * side * 4);
}

// A convolution of outputChannels × inputChannels / groups square float32 filters over a
// batch of batchSize.
ConvolutionCall call(std::int64_t inputChannels, std::int64_t outputChannels, std::int64_t groups, std::int64_t kernel,
                     std::int64_t stride, std::uint64_t inputBytes, std::uint64_t outputBytes, std::int64_t batchSize)
{
    const auto filterBytes = static_cast<std::uint64_t>(outputChannels * inputChannels / groups * kernel * kernel * 4);
    return {inputChannels, groups, {kernel, kernel}, {stride, stride}, inputBytes, outputBytes, filterBytes, batchSize};
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

// The workspace rule's three sizes and, where the filter's gradient is the lesser of two
// algorithms' workspaces, both, to compare as one value.
QList<qulonglong> workspacesOf(const ConvolutionCall &call)
{
    const auto workspaces = cudnnConvolutionWorkspaces(call);
    QList<qulonglong> sizes{workspaces.forward, workspaces.backwardData, workspaces.backwardFilter};
    if (workspaces.backwardFilterAlgorithms)
        sizes << (*workspaces.backwardFilterAlgorithms)[0] << (*workspaces.backwardFilterAlgorithms)[1];
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
        const gpumem::estimate::ConvolutionWorkspaceRecorder recorder(allocator, recorded.gpuBytes,
                                                                      recorded.gpuAlgorithms, recorded.gpuWorkspaces);
        const torch::Tensor input = torch::randn({2, channels, 8, 8}, torch::dtype(dtype)).requires_grad_();
        conv->forward(input).sum().backward();
    }
    recorded.raw = allocator.trace();
    return recorded;
}

// The blocks that conv's pass over a [2, channels, 8, 8] input allocates and releases at
// once on the GPU (tagTrace, as the estimate tags it; the CPU kernels' scratch left out), in
// order.
std::vector<std::uint64_t> gpuTransients(torch::nn::Conv2d &conv, std::int64_t channels)
{
    const gpumem::estimate::TaggedTrace tagged = gpumem::estimate::tagTrace(2, {}, recordConvolution(conv, channels));
    std::vector<std::uint64_t> sizes;
    for (const std::size_t i : gpumem::tests::transientAllocations(tagged))
        sizes.push_back(tagged.events[i].bytes);
    return sizes;
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
        // The sizes (forward, backward for the input's gradient, backward for the
        // filter's) set against the H200's requests (datasets/h200_conv_workspaces.csv).
        addColumns<ConvolutionCall, QList<qulonglong>>("call", "workspaces");
        // vgg16's second convolution, 64→64, 3×3 at 224×224, batch 128: input and output
        // 1,568 MiB each, filter 147,456 bytes; its gradient's partial sums are 14 filters,
        // 2,064,384 bytes. The H200 asked for 3,136.141 MiB, 3,136.141 and 3,138.110.
        const std::uint64_t vggMap = imageBytes(128, 64, 224);
        QCOMPARE(vggMap, std::uint64_t{1568} << 20);
        const std::uint64_t vggCopies = 2 * vggMap + 147456;
        addRow("dense 3x3", call(64, 64, 1, 3, 1, vggMap, vggMap, 128),
               QList<qulonglong>{vggCopies, vggCopies, vggCopies + 14 * 147456});
        // 512→512 at 14×14, batch 128: 49 + 49 MiB and a 9 MiB filter, whose 14 copies
        // would exceed the 8 MiB of partial sums (the H200: 107.000, 107.000, 115.251).
        const std::uint64_t deepMap = imageBytes(128, 512, 14);
        const std::uint64_t deepCopies = 2 * deepMap + (std::uint64_t{9} << 20);
        addRow("partial sums at most 8 MiB", call(512, 512, 1, 3, 1, deepMap, deepMap, 128),
               QList<qulonglong>{deepCopies, deepCopies, deepCopies + (std::uint64_t{8} << 20)});
        // ResNet's stem, 3→64, 7×7 at stride 2: 73.5 + 392 MiB and 37,632 filter bytes
        // (the H200: 465.536 forward, 495.790 for the filter's gradient).
        const std::uint64_t stemCopies = imageBytes(128, 3, 224) + imageBytes(128, 64, 112) + 37632;
        addRow("stem at stride 2", call(3, 64, 1, 7, 2, imageBytes(128, 3, 224), imageBytes(128, 64, 112), 128),
               QList<qulonglong>{stemCopies, stemCopies, stemCopies + 14 * 37632});
        // 1×1 at stride 1: only the filter's gradient, the lesser of a filter per sample and
        // the copies of input and output with the partial sums. resnet50's 256→64 at 56×56,
        // batch 128: 128 filters of 65,536 bytes (8 MiB) against 392 + 98 MiB and 14 filters
        // (the H200: 8.000).
        const std::uint64_t wideMaps = imageBytes(128, 256, 56) + imageBytes(128, 64, 56);
        addRow("1x1, a filter per sample",
               call(256, 64, 1, 1, 1, imageBytes(128, 256, 56), imageBytes(128, 64, 56), 128),
               QList<qulonglong>{0, 0, std::uint64_t{8} << 20, std::uint64_t{8} << 20, wideMaps + 14 * 65536});
        // Its 1024→512 at 14×14: 128 filters of 2 MiB (256 MiB) against 98 + 49 MiB and the
        // 8 MiB of partial sums (the H200: 155.001).
        const std::uint64_t deepMaps = imageBytes(128, 1024, 14) + imageBytes(128, 512, 14);
        const std::uint64_t deepCopiesAndSums = deepMaps + (std::uint64_t{8} << 20);
        QCOMPARE(deepCopiesAndSums, std::uint64_t{155} << 20);
        addRow("1x1, the copies", call(1024, 512, 1, 1, 1, imageBytes(128, 1024, 14), imageBytes(128, 512, 14), 128),
               QList<qulonglong>{0, 0, deepCopiesAndSums, std::uint64_t{256} << 20, deepCopiesAndSums});
        // None: depthwise, and an image's three channels at stride 1.
        addRow("depthwise", call(96, 96, 96, 3, 1, imageBytes(8, 96, 56), imageBytes(8, 96, 56), 8),
               QList<qulonglong>{0, 0, 0});
        addRow("three channels", call(3, 64, 1, 3, 1, imageBytes(8, 3, 224), imageBytes(8, 64, 224), 8),
               QList<qulonglong>{0, 0, 0});
        // Grouped but not depthwise (ResNeXt, RegNet): cuDNN runs it; the filter is
        // 64 × 8 × 3 × 3 floats, 18,432 bytes.
        const std::uint64_t groupedCopies = 2 * imageBytes(8, 64, 56) + 18432;
        addRow("grouped", call(64, 64, 8, 3, 1, imageBytes(8, 64, 56), imageBytes(8, 64, 56), 8),
               QList<qulonglong>{groupedCopies, groupedCopies, groupedCopies + 14 * 18432});
    }
    void sizeRule()
    {
        QFETCH(ConvolutionCall, call);
        QFETCH(QList<qulonglong>, workspaces);
        QCOMPARE(workspacesOf(call), workspaces);
    }

    void tellsTheKindsApart()
    {
        using gpumem::estimate::ConvolutionKind;
        using gpumem::estimate::convolutionKind;
        const std::uint64_t bytes = imageBytes(8, 64, 56);
        QCOMPARE(convolutionKind(call(64, 64, 64, 3, 1, bytes, bytes, 8)), ConvolutionKind::Depthwise);
        QCOMPARE(convolutionKind(call(64, 64, 64, 3, 2, bytes, bytes, 8)), ConvolutionKind::Depthwise);
        // Grouped but not one group per channel: dense, as cuDNN runs it.
        QCOMPARE(convolutionKind(call(64, 64, 8, 3, 1, bytes, bytes, 8)), ConvolutionKind::DenseUnitStride);
        QCOMPARE(convolutionKind(call(64, 128, 1, 3, 2, bytes, bytes, 8)), ConvolutionKind::DenseStrided);
        QCOMPARE(convolutionKind(call(64, 256, 1, 1, 1, bytes, bytes, 8)), ConvolutionKind::PointwiseUnitStride);
        QCOMPARE(convolutionKind(call(64, 256, 1, 1, 2, bytes, bytes, 8)), ConvolutionKind::PointwiseStrided);
        // A 1×3 filter is not pointwise, nor a stride of 1×2 unit.
        ConvolutionCall uneven = call(64, 64, 1, 1, 1, bytes, bytes, 8);
        uneven.kernel = {1, 3};
        QCOMPARE(convolutionKind(uneven), ConvolutionKind::DenseUnitStride);
        uneven.stride = {1, 2};
        QCOMPARE(convolutionKind(uneven), ConvolutionKind::DenseStrided);
        QCOMPARE(std::string(gpumem::estimate::convolutionKindName(ConvolutionKind::PointwiseStrided)),
                 std::string("1x1, strided"));
    }

    void eachPassAddsItsWorkspaces()
    {
        // 16→32 channels, 3×3, padding 1, batch 2 at 8×8: input 8,192 bytes, output
        // 16,384, filter 18,432. Forward and the input's gradient copy all three (43,008
        // bytes); the filter's gradient adds 14 × 18,432 of partial sums (301,056), last.
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
        const std::vector<std::uint64_t> expected{43008, 43008, 301056};
        QCOMPARE(gpuTransients(conv, 16), expected);
    }

    void workspacesAreCountedApartFromTheTensors()
    {
        // The blocks cuDNN allocates and frees within a call, and only they, carry the
        // workspace category, so the breakdown and the timeline show them apart: while the
        // filter gradient's 301,056 bytes (588 × 512) are held, they are all the category has.
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
        const gpumem::estimate::TaggedTrace tagged = gpumem::estimate::tagTrace(2, {}, recordConvolution(conv, 16));
        using gpumem::estimate::Category;
        std::vector<std::size_t> workspaces;
        for (std::size_t i = 0; i < tagged.events.size(); ++i)
            if (!tagged.events[i].isRelease() && tagged.events[i].category == Category::CudnnWorkspaces)
                workspaces.push_back(i);
        QCOMPARE(workspaces, gpumem::tests::transientAllocations(tagged));
        const auto replay = gpumem::estimate::replayTrace(tagged, true);
        const auto workspaceBytes = [&](std::size_t event) {
            return replay.timeline[event].liveBytes[static_cast<std::size_t>(Category::CudnnWorkspaces)];
        };
        QCOMPARE(workspaceBytes(workspaces.back()), std::uint64_t{301056});
        QCOMPARE(workspaceBytes(workspaces.back() + 1), std::uint64_t{0});
        QCOMPARE(std::string(gpumem::estimate::categoryName(Category::CudnnWorkspaces)),
                 std::string("cudnn_workspaces"));
    }

    void theFirstLayerSkipsTheInputsGradient()
    {
        // An input that needs no gradient (the images) leaves backward the filter's pass alone.
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
        gpumem::estimate::RecordedSteps recorded;
        gpumem::probe::TrackingAllocator allocator(true, 0);
        {
            gpumem::estimate::TracingScope scope(allocator);
            const gpumem::estimate::ConvolutionWorkspaceRecorder recorder(
                allocator, recorded.gpuBytes, recorded.gpuAlgorithms, recorded.gpuWorkspaces);
            conv->forward(torch::randn({2, 16, 8, 8})).sum().backward();
        }
        const std::vector<std::uint64_t> sizes = transientBlocks(allocator.trace());
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{43008}), std::ptrdiff_t{1});
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{301056}), std::ptrdiff_t{1});
    }

    void stridedOutputIsComputedFromTheShapes()
    {
        // 16→32, 3×3 at stride 2 without padding: (8 − 3) / 2 + 1 = 3, an output of
        // 2 × 32 × 3 × 3 × 4 = 2,304 bytes beside the 8,192 of the input and the filter's
        // 18,432: 28,928 forward and for the input's gradient.
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).stride(2));
        const std::vector<std::uint64_t> expected{28928, 28928, 28928 + 14 * 18432};
        QCOMPARE(gpuTransients(conv, 16), expected);
    }

    void pointwiseConvolutionAddsItsFilterGradientsAlone()
    {
        // 16→32, 1×1, batch 2 at 8×8: a filter of 2,048 bytes per sample (4,096) against
        // 8,192 + 16,384 bytes of input and output and 14 filters of partial sums (53,248);
        // the trace keeps both for extrapolation.
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 1));
        QCOMPARE(gpuTransients(conv, 16), std::vector<std::uint64_t>{4096});
        const gpumem::estimate::TaggedTrace tagged = gpumem::estimate::tagTrace(2, {}, recordConvolution(conv, 16));
        const auto workspaces = gpumem::tests::transientAllocations(tagged);
        QCOMPARE(workspaces.size(), std::size_t{1});
        QCOMPARE(tagged.events[workspaces.front()].algorithms,
                 (std::optional<gpumem::estimate::AlgorithmBytes>{{4096, 53248}}));
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
        // The output (2 × 32 × 8 × 8 float64, 32,768 bytes) and the workspaces (forward and
        // the input's gradient: (8,192 + 16,384 + 18,432) × 2 bytes) stay.
        QVERIFY(std::count(doubled.begin(), doubled.end(), std::int64_t{32768}) >= 1);
        QCOMPARE(std::count(doubled.begin(), doubled.end(), std::int64_t{2 * 43008}), std::ptrdiff_t{2});
    }

    void recordsNothingOnceGone()
    {
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
        gpumem::probe::TrackingAllocator allocator(true, 0);
        {
            gpumem::estimate::TracingScope scope(allocator);
            {
                gpumem::estimate::GpuBlockBytes gpuBytes;
                gpumem::estimate::GpuBlockAlgorithms gpuAlgorithms;
                gpumem::estimate::GpuWorkspaceBlocks gpuWorkspaces;
                const gpumem::estimate::ConvolutionWorkspaceRecorder recorder(allocator, gpuBytes, gpuAlgorithms,
                                                                              gpuWorkspaces);
            }
            conv->forward(torch::randn({2, 16, 8, 8}).requires_grad_()).sum().backward();
        }
        const std::vector<std::uint64_t> sizes = transientBlocks(allocator.trace());
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{43008}), std::ptrdiff_t{0});
    }
};

QTEST_GUILESS_MAIN(TestConvolutionWorkspace)
#include "test_ConvolutionWorkspace.moc"
