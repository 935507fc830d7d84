// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"
#include "RaisedInputError.h"
#include "data/Dataset.h"
#include "io/InputError.h"
#include "models/AllocatorSimulationRegressor.h"
#include "models/RegressorRegistry.h"
#include "models/SimulatedPeakInput.h"
#include "probe/CachingAllocatorSimulator.h"

#include <QTemporaryDir>
#include <QTest>

using gpumem::data::Dataset, gpumem::models::AllocatorSimulationRegressor, gpumem::tests::baselineDataset;

namespace {

constexpr std::uint64_t MiB = 1048576;

const char *const kTinyMlps = "Activations-Params,Batch Size,memory\n"
                              "\"[('linear', 10, 110), ('ReLU', 10, 0), ('linear', 2, 22)]\",4,1000\n"
                              "\"[('linear', 20, 420), ('Tanh', 20, 0), ('linear', 5, 105)]\",8,1010\n"
                              "\"[('linear', 8, 72), ('ReLU', 8, 0), ('linear', 3, 27)]\",2,1020\n";

// The columns of a probe's MLP job (probe_mlp.csv) and a target.
const char *const kProbeMlpHeader = "family,batch_size,optimizer,dtype,steps,input_features,depth,width,width_pattern,"
                                    "activation,batch_norm,dropout,classes,memory\n";

} // namespace

class TestAllocatorSimulationRegressor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void tinyJobReservesOneSmallSegmentAndTheWorkspace()
    {
        // Every tensor of a tiny MLP is far below 1 MiB: one 2 MiB small-pool
        // segment holds them all. The 8.125 MiB cuBLAS workspace is a large-pool
        // request under 10 MiB, so it reserves a 20 MiB segment: 22 MiB in all.
        gpumem::models::JobRow row;
        row.layers = {{"linear", {10, 110}}, {"ReLU", {10, 0}}, {"linear", {2, 22}}};
        row.batchSize = 4;
        row.optimizer = "adam";
        QCOMPARE(AllocatorSimulationRegressor::simulatedReservedBytes(row, 8519680), 22 * MiB);
        QCOMPARE(AllocatorSimulationRegressor::simulatedReservedBytes(row, 0), 2 * MiB);
    }

    void largeLayersNeedLargeSegments()
    {
        // One 1024 × 1024 linear layer: its 4 MiB weight (and gradient, Adam
        // states and temporary) are large-pool blocks under 10 MiB, served from
        // 20 MiB segments. The weight, its gradient, two Adam states and the
        // temporary are 5 × 4 MiB live at the step's peak: more than one 20 MiB
        // segment once the workspace is there too.
        gpumem::models::JobRow row;
        row.layers = {{"linear", {1024, 1024.0 * 1024 + 1024}}};
        row.batchSize = 1;
        row.optimizer = "adam";
        const std::uint64_t reserved = AllocatorSimulationRegressor::simulatedReservedBytes(row, 0);
        QVERIFY(reserved >= 20 * MiB + 2 * MiB);
        QCOMPARE(reserved % (2 * MiB), std::uint64_t{0});
    }

    void theNetworksInputIsTheSimulationWithoutOffset()
    {
        // The three tiny jobs: 22 MiB each (the test above), whatever their targets.
        const auto peaks = gpumem::models::simulatedPeakMebibytes(baselineDataset(kTinyMlps));
        QVERIFY(peaks.has_value());
        QCOMPARE(peaks->size(), Eigen::Index{3});
        for (int row = 0; row < 3; ++row)
            QCOMPARE((*peaks)[row], 22.0);
        // A probe dataset is traced with LibTorch, not given as an input.
        const std::string probeRows = std::string(kProbeMlpHeader) +
                                      "mlp,8,sgd,float32,2,10,1,16,uniform,relu,0,0.00,2,600\n"
                                      "mlp,4,adam,float32,2,12,2,32,pyramid,gelu,1,0.10,3,640\n"
                                      "mlp,2,sgd,float32,2,6,1,8,uniform,relu,0,0.00,2,700\n";
        QVERIFY(!gpumem::models::simulatedPeakMebibytes(baselineDataset(probeRows)).has_value());
        // Layers the simulation cannot follow leave the row a stand-in, and the reason;
        // a fit then learns without the input.
        const char *const convolution = "Activations-Params,Batch Size,memory\n"
                                        "\"[('linear', 10, 110), ('ReLU', 10, 0)]\",4,1000\n"
                                        "\"[('conv2d', 20, 420), ('linear', 5, 105)]\",8,1010\n"
                                        "\"[('linear', 8, 72), ('ReLU', 8, 0)]\",2,1020\n";
        const auto partial = gpumem::models::simulatedPeaks(baselineDataset(convolution));
        QVERIFY(partial.has_value());
        QVERIFY(partial->unfollowed[0].empty());
        QVERIFY(partial->unfollowed[1].find("must start with a ('linear'") != std::string::npos);
        QVERIFY(partial->unfollowed[2].empty());
        // 4 bytes × (4 × 525 parameters + 2 × batch 8 × 25 activations), and the 8.125 MiB workspace.
        QCOMPARE(partial->mebibytes[1], (4.0 * (4 * 525 + 2 * 8 * 25) + 8519680.0) / 1048576.0);
        QCOMPARE(*gpumem::models::simulatedPeakMebibytes(baselineDataset(convolution)), partial->mebibytes);
        QVERIFY(!gpumem::models::simulatedPeakWherePossible(baselineDataset(convolution)).has_value());
        // The allocator_sim model refuses the same rows, naming the line.
        auto model =
            gpumem::models::createRegressor("allocator_sim", gpumem::models::regressorHyperparameters("allocator_sim"));
        const auto modelError = gpumem::tests::raisedInputError([&] {
            model->fit(baselineDataset(convolution), {0, 1, 2});
        });
        QCOMPARE(modelError.line(), std::int64_t{3});
        QVERIFY(modelError.message().find("must start with a ('linear'") != std::string::npos);
    }

    void hugeLayersAreRefusedInsteadOfWrappingPast2To64()
    {
        // Each tensor of ('linear', 1e6, 1e17) holds 4e17 bytes, below the 2^62 one tensor
        // may take; six or eight such layers with their gradients and Adam's states hold
        // over 2^64 bytes at once, which a 64-bit count wrapped into the same small sum.
        std::string rows = "Activations-Params,Batch Size,memory\n";
        for (int layers : {6, 8}) {
            gpumem::models::JobRow row;
            std::string cell;
            for (int layer = 0; layer < layers; ++layer) {
                row.layers.push_back({"linear", {1e6, 1e17}});
                cell += std::string(layer ? ", " : "") + "('linear', 1000000, 100000000000000000)";
            }
            row.batchSize = 1;
            row.optimizer = "adam";
            const auto error = gpumem::tests::raisedInputError(
                [&] { AllocatorSimulationRegressor::simulatedReservedBytes(row, 8519680); });
            QVERIFY2(error.message().find("more than 4 EiB (2^62 bytes)") != std::string::npos, error.what());
            rows += "\"[" + cell + "]\",1,1000\n";
        }
        auto model =
            gpumem::models::createRegressor("allocator_sim", gpumem::models::regressorHyperparameters("allocator_sim"));
        const auto fitError = gpumem::tests::raisedInputError([&] { model->fit(baselineDataset(rows), {0, 1}); });
        QCOMPARE(fitError.line(), std::int64_t{2});
        QVERIFY2(fitError.message().find("beyond any GPU's") != std::string::npos, fitError.what());
        // Two such layers stay below the limit and are counted exactly: the first
        // layer's 1e11 inputs make its weight 4e17 - 4e6 bytes, every segment of a
        // request of 10 MiB or more is the request rounded up to 2 MiB, and the model,
        // gradients, two Adam states and the step's temporary of both weights are live at once.
        gpumem::models::JobRow two;
        two.layers = {{"linear", {1e6, 1e17}}, {"linear", {1e6, 1e17}}};
        two.batchSize = 1;
        two.optimizer = "adam";
        const std::uint64_t reserved = AllocatorSimulationRegressor::simulatedReservedBytes(two, 0);
        const std::uint64_t weight =
            (std::uint64_t{400000000000000000} - 4000000 + 2 * MiB - 1) / (2 * MiB) * (2 * MiB);
        QVERIFY(reserved >= 10 * weight);
        QVERIFY(reserved < gpumem::probe::CachingAllocatorSimulator::maxReservedBytes);
    }

    void calibratesTheContextOnTrainingRows()
    {
        // All three jobs simulate to 22 MiB; the offset is the mean of the
        // training targets (1000 and 1010) minus 22.
        const Dataset dataset = baselineDataset(kTinyMlps);
        auto model =
            gpumem::models::createRegressor("allocator_sim", gpumem::models::regressorHyperparameters("allocator_sim"));
        const auto result = model->fit(dataset, {0, 1});
        QCOMPARE(result.stopReason, gpumem::training::StopReason::Completed);
        const Eigen::VectorXd predicted = model->predict(dataset);
        for (int row = 0; row < 3; ++row)
            QVERIFY(std::abs(predicted[row] - 1005.0) < 1e-9);
    }

    void probeRowsTraceTheJobOnTheCpu()
    {
        const std::string csv = std::string(kProbeMlpHeader) +
                                "mlp,8,sgd,float32,2,10,1,16,uniform,relu,0,0.00,2,600\n"
                                "mlp,4,adam,float32,2,12,2,32,pyramid,gelu,1,0.10,3,640\n"
                                "mlp,2,sgd,float32,2,6,1,8,uniform,relu,0,0.00,2,700\n";
        // (Three rows, so that no text column has only distinct values: those are read as identifiers.)
        const Dataset dataset = baselineDataset(csv);
        AllocatorSimulationRegressor model(gpumem::models::allocatorSimulationHyperparameters());
        try {
            model.fit(dataset, {0, 1});
        } catch (const std::exception &error) {
            QFAIL(error.what());
        }
        // Tiny jobs: 22 MiB each, so the offset is the mean target minus 22.
        QVERIFY(std::abs(model.offset() - (620.0 - 22.0)) < 1e-9);
    }

    void aGpuSizeJobIsExtrapolatedNotRun()
    {
        // Batch 16384 through two 4096-wide layers: each hidden activation is
        // 16384 × 4096 × 4 bytes = 256 MiB, and backward keeps both, so the GPU needs
        // more than 512 MiB. Running the job would take that on the CPU as well; the
        // small traces extrapolate to it in a fraction of the memory and time.
        const std::string csv = std::string(kProbeMlpHeader) +
                                "mlp,16384,sgd,float32,2,64,2,4096,uniform,relu,0,0.00,2,600\n"
                                "mlp,8,sgd,float32,2,64,2,4096,uniform,relu,0,0.00,2,640\n"
                                "mlp,2,sgd,float32,2,6,1,8,uniform,relu,0,0.00,3,700\n";
        const Dataset dataset = baselineDataset(csv);
        AllocatorSimulationRegressor model(gpumem::models::allocatorSimulationHyperparameters());
        model.fit(dataset, {1, 2});
        const double predicted = model.predict(dataset)[0] - model.offset();
        QVERIFY2(predicted > 512.0, qPrintable(QString::number(predicted)));
        QVERIFY2(predicted < 4096.0, qPrintable(QString::number(predicted)));
    }

    void savesAndLoadsThroughTheRegistry()
    {
        const Dataset dataset = baselineDataset(kTinyMlps);
        auto hyperparameters = gpumem::models::regressorHyperparameters("allocator_sim");
        hyperparameters.set("cublas_workspace_mib", 32.0);
        auto model = gpumem::models::createRegressor("allocator_sim", hyperparameters);
        model->fit(dataset, {0, 1, 2});
        QTemporaryDir folder;
        const std::string directory = folder.filePath("sim").toStdString();
        model->save(directory);
        const auto loaded = gpumem::models::loadRegressor(directory);
        QCOMPARE(QString::fromStdString(loaded->name()), QStringLiteral("allocator_sim"));
        QCOMPARE(loaded->hyperparameters().real("cublas_workspace_mib"), 32.0);
        QCOMPARE(loaded->predict(dataset), model->predict(dataset));
    }

    void rowsWithoutAJobAreRefused()
    {
        const Dataset dataset = baselineDataset("width,memory\n3,10\n4,11\n");
        AllocatorSimulationRegressor model(gpumem::models::allocatorSimulationHyperparameters());
        const auto error = gpumem::tests::raisedInputError([&] { model.fit(dataset, {0, 1}); });
        QVERIFY(std::string(error.what()).find("'family'") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, model.predict(dataset)); // not fitted
    }
};

QTEST_GUILESS_MAIN(TestAllocatorSimulationRegressor)
#include "test_AllocatorSimulationRegressor.moc"
