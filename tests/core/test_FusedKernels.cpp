// SPDX-License-Identifier: GPL-3.0-or-later
// The fused CPU kernels of the network (attention, GRU recurrence) against LibTorch's
// own operators and module: the same outputs and the same gradients.
#include "DataTables.h"
#include "models/GruLayer.h"
#include "models/PackedAttention.h"

#include <QTest>

#include <stdexcept>

namespace {

double largestDifference(const torch::Tensor &a, const torch::Tensor &b)
{
    return (a - b).abs().max().item<double>();
}

// The gradient of a fixed random weighting of `output` with respect to `input`.
torch::Tensor gradientOf(const torch::Tensor &output, const torch::Tensor &input, const torch::Tensor &weighting)
{
    return torch::autograd::grad({(output * weighting).sum()}, {input})[0];
}

} // namespace

class TestFusedKernels : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void attentionMatchesTheOperators_data()
    {
        addColumns<int, int, bool, bool>("tokens", "heads", "padded", "dropped");
        addRow("one token", 1, 4, false, false);
        addRow("few tokens", 9, 4, false, false);
        addRow("one head", 9, 1, false, false);
        addRow("padded", 7, 2, true, false);
        addRow("dropout mask", 9, 4, false, true);
        addRow("many tokens, padded, dropout", 40, 4, true, true);
    }

    void attentionMatchesTheOperators()
    {
        QFETCH(int, tokens);
        QFETCH(int, heads);
        QFETCH(bool, padded);
        QFETCH(bool, dropped);
        torch::manual_seed(11);
        const std::int64_t batch = 3;
        const std::int64_t width = 16;
        const auto projected = torch::randn({batch, tokens, 3 * width}).requires_grad_(true);
        torch::Tensor padding;
        if (padded) {
            padding = torch::zeros({batch, tokens}, torch::kBool);
            padding.index_put_({1, torch::indexing::Slice(tokens - 2, tokens)}, true);
            padding.index_put_({2, torch::indexing::Slice(1, tokens)}, true);
        }
        const auto keep = dropped ? gpumem::models::attentionDropoutMask(projected, heads, 0.3, true) : torch::Tensor();
        if (dropped) // the mask keeps a weight at 1/(1-p) or drops it
            QVERIFY(keep.eq(0).logical_or(keep.sub(1.0 / 0.7).abs().lt(1e-6)).all().item<bool>());

        const auto fused = gpumem::models::fusedCpuAttention(projected, heads, padding, keep);
        const auto reference = gpumem::models::tensorAttention(projected, heads, padding, keep);
        QCOMPARE(fused.sizes(), reference.sizes());
        QVERIFY2(largestDifference(fused, reference) < 1e-5,
                 qPrintable(QString::number(largestDifference(fused, reference))));
        const auto weighting = torch::randn(fused.sizes());
        const double gradientGap =
            largestDifference(gradientOf(fused, projected, weighting), gradientOf(reference, projected, weighting));
        QVERIFY2(gradientGap < 1e-4, qPrintable(QString::number(gradientGap)));
    }

    void aRowWithEveryKeyPaddedGetsZerosNotNaN()
    {
        // The operators give NaN for a row whose keys are all padding; the kernel gives
        // no weight anywhere, so one such row cannot poison a batch's gradients.
        const auto projected = torch::randn({2, 3, 12}).requires_grad_(true);
        auto padding = torch::zeros({2, 3}, torch::kBool);
        padding[0].fill_(true);
        const auto output = gpumem::models::fusedCpuAttention(projected, 2, padding, {});
        QVERIFY(output[0].eq(0).all().item<bool>());
        output.sum().backward();
        QVERIFY(projected.grad().isfinite().all().item<bool>());
        QVERIFY(largestDifference(output[1], gpumem::models::tensorAttention(projected, 2, padding, {})[1]) < 1e-5);
    }

    void dropoutMaskIsUndefinedWhenNothingDrops()
    {
        const auto projected = torch::randn({2, 3, 12});
        QVERIFY(!gpumem::models::attentionDropoutMask(projected, 2, 0.5, false).defined());
        QVERIFY(!gpumem::models::attentionDropoutMask(projected, 2, 0.0, true).defined());
    }

    void attentionRejectsShapesItCannotRead()
    {
        const auto projected = torch::randn({2, 3, 12});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpumem::models::fusedCpuAttention(projected, 3, {}, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpumem::models::fusedCpuAttention(
                                                            projected, 2, torch::zeros({2, 4}, torch::kBool), {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 gpumem::models::fusedCpuAttention(projected.to(torch::kFloat64), 2, {}, {}));
    }

    void gruMatchesTheModule_data()
    {
        addColumns<int>("steps");
        addRow("one step", 1);
        addRow("nine steps", 9);
        addRow("forty steps", 40);
    }

    void gruMatchesTheModule()
    {
        QFETCH(int, steps);
        torch::manual_seed(12);
        torch::nn::GRU gru(torch::nn::GRUOptions(6, 8).batch_first(true));
        const auto input = torch::randn({5, steps, 6}).requires_grad_(true);
        const auto fused = gpumem::models::fusedCpuGru(*gru, input);
        const auto reference = std::get<0>(gru->forward(input));
        QCOMPARE(fused.sizes(), reference.sizes());
        QVERIFY2(largestDifference(fused, reference) < 1e-5,
                 qPrintable(QString::number(largestDifference(fused, reference))));
        // Gradients of the input and of all four weights agree: training sees the same function.
        const auto weighting = torch::randn(fused.sizes());
        std::vector<torch::Tensor> wrt = gru->all_weights();
        wrt.push_back(input);
        const auto ours = torch::autograd::grad({(fused * weighting).sum()}, wrt);
        const auto theirs = torch::autograd::grad({(reference * weighting).sum()}, wrt);
        for (std::size_t i = 0; i < wrt.size(); ++i) {
            const double gap = largestDifference(ours[i], theirs[i]);
            QVERIFY2(gap < 1e-4, qPrintable(QStringLiteral("gradient %1: %2").arg(i).arg(gap)));
        }
    }

    void gruLayerUsesTheModuleWhereTheKernelCannotRun()
    {
        torch::manual_seed(13);
        torch::nn::GRU gru(torch::nn::GRUOptions(4, 3).batch_first(true));
        gru->to(torch::kFloat64);
        const auto input = torch::randn({2, 5, 4}, torch::kFloat64);
        const auto expected = std::get<0>(gru->forward(input));
        QVERIFY(largestDifference(gpumem::models::runGruLayer(*gru, input), expected) < 1e-12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpumem::models::fusedCpuGru(*gru, input));
    }
};

QTEST_APPLESS_MAIN(TestFusedKernels)
#include "test_FusedKernels.moc"
