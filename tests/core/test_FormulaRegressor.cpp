// SPDX-License-Identifier: GPL-3.0-or-later
#include "RaisedInputError.h"
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "io/InputError.h"
#include "models/FormulaRegressor.h"
#include "models/RegressorRegistry.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>

using gpumem::data::Dataset;

namespace {

constexpr double MiB = 1048576.0;

Dataset datasetFrom(const std::string &csv, const std::string &target)
{
    const auto table = gpumem::data::loadTableFromText(csv, "jobs.csv");
    gpumem::data::RoleRequest request;
    request.target = target;
    std::vector<std::string> warnings;
    return Dataset::fromTable(table, gpumem::data::assignRoles(table, request), gpumem::data::BadCellPolicy::Fail,
                              warnings);
}

std::string exactText(double value)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// Two GPUMemNet-style rows; the formula's bytes are worked out by hand in the tests.
std::string gpuMemNetCsv(double firstTarget, double secondTarget)
{
    return "Activations-Params,Batch Size,memory\n"
           "\"[('linear', 10, 110), ('ReLU', 10, 0), ('linear', 2, 22)]\",4," +
           exactText(firstTarget) +
           "\n"
           "\"[('linear', 100, 1100), ('Softmax', 100, 0)]\",1000," +
           exactText(secondTarget) + "\n";
}

// Adam (2 states): row 1 has 132 parameters and 22 activations per sample, batch 4:
// (132 × 4 copies + 22 × 4) × 4 bytes = 2464 bytes. Row 2: 1100 parameters, 200
// activations, batch 1000: (1100 × 4 + 200 × 1000) × 4 = 817600 bytes.
constexpr double kFirstAdamBytes = 2464.0;
constexpr double kSecondAdamBytes = 817600.0;

} // namespace

class TestFormulaRegressor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void constantOverheadOnHandComputedRows()
    {
        // Targets are the formula plus 500 MiB: the calibrated offset is 500 and
        // the predictions hit the targets.
        const double first = kFirstAdamBytes / MiB + 500.0;
        const double second = kSecondAdamBytes / MiB + 500.0;
        const Dataset dataset = datasetFrom(gpuMemNetCsv(first, second), "memory");
        auto hyperparameters = gpumem::models::regressorHyperparameters("formula");
        hyperparameters.set("fit_scale", false);
        auto model = gpumem::models::createRegressor("formula", hyperparameters);
        model->fit(dataset, {0, 1});
        const Eigen::VectorXd predicted = model->predict(dataset);
        QVERIFY(std::abs(predicted[0] - first) < 1e-6);
        QVERIFY(std::abs(predicted[1] - second) < 1e-6);
    }

    void sgdCountsWeightsAndGradientsOnly()
    {
        // Plain SGD: (132 × 2 + 22 × 4) × 4 = 1408 bytes for row 1.
        gpumem::models::JobRow row;
        row.layers = {{"linear", {10, 110}}, {"ReLU", {10, 0}}, {"linear", {2, 22}}};
        row.batchSize = 4;
        row.optimizer = "sgd";
        row.bytesPerElement = 4;
        QCOMPARE(gpumem::models::FormulaRegressor::estimateBytes(row), 1408.0);
        row.optimizer = "sgd_momentum";
        QCOMPARE(gpumem::models::FormulaRegressor::estimateBytes(row), 1936.0); // (132 × 3 + 88) × 4
    }

    void scaleAndOffsetAreFitted()
    {
        // Targets 3 × formula + 100 MiB: least squares finds scale 3 and offset 100.
        const Dataset dataset =
            datasetFrom(gpuMemNetCsv(3 * kFirstAdamBytes / MiB + 100, 3 * kSecondAdamBytes / MiB + 100), "memory");
        gpumem::models::FormulaRegressor model(gpumem::models::formulaHyperparameters());
        model.fit(dataset, {0, 1});
        QVERIFY(std::abs(model.scale() - 3.0) < 1e-9);
        QVERIFY(std::abs(model.offset() - 100.0) < 1e-9);
    }

    void probeRowsAreRebuiltFromTheirConfiguration()
    {
        // An MLP 10 → 16 → 2 in float64 with SGD, batch 8: 176 + 34 = 210
        // parameters, 16 + 16 + 2 = 34 activations per sample (linear, ReLU, linear):
        // (210 × 2 + 34 × 8) × 8 bytes = 5536 bytes.
        const std::string csv =
            "family,batch_size,optimizer,dtype,steps,input_features,depth,width,width_pattern,activation,"
            "batch_norm,dropout,classes,memory\n"
            "mlp,8,sgd,float64,3,10,1,16,uniform,relu,0,0.00,2,7\n"
            "mlp,8,sgd,float64,3,10,1,16,uniform,relu,0,0.00,2,9\n";
        const Dataset dataset = datasetFrom(csv, "memory");
        auto hyperparameters = gpumem::models::formulaHyperparameters();
        hyperparameters.set("fit_scale", false);
        gpumem::models::FormulaRegressor model(hyperparameters);
        model.fit(dataset, {0, 1});
        QVERIFY(std::abs(model.offset() - (8.0 - 5536.0 / MiB)) < 1e-9);
    }

    void ignoredConstantColumnsStillDescribeTheJob()
    {
        // The workbench starts constant columns ignored (suggestedRoles): every column of
        // these rows but the target is constant, except width. family, batch_size and
        // steps must still reach the job, which gives the same bytes as with all features.
        const std::string csv =
            "family,batch_size,optimizer,dtype,steps,input_features,depth,width,width_pattern,activation,"
            "batch_norm,dropout,classes,memory\n"
            "mlp,8,sgd,float64,3,10,1,16,uniform,relu,0,0.00,2,7\n"
            "mlp,8,sgd,float64,3,10,1,32,uniform,relu,0,0.00,2,9\n";
        const auto table = gpumem::data::loadTableFromText(csv, "jobs.csv");
        const auto roles = gpumem::data::suggestedRoles(table);
        QCOMPARE(roles[*table.columnIndex("family")], gpumem::data::ColumnRole::Ignored);
        QCOMPARE(roles[*table.columnIndex("batch_size")], gpumem::data::ColumnRole::Ignored);
        QCOMPARE(roles[*table.columnIndex("width")], gpumem::data::ColumnRole::Feature);
        std::vector<std::string> warnings;
        const Dataset ignored = Dataset::fromTable(table, roles, gpumem::data::BadCellPolicy::Fail, warnings);
        QCOMPARE(ignored.categoricalFeatures().size(), std::size_t{0});

        auto hyperparameters = gpumem::models::formulaHyperparameters();
        hyperparameters.set("fit_scale", false);
        gpumem::models::FormulaRegressor withConstants(hyperparameters);
        withConstants.fit(ignored, {0, 1});
        gpumem::models::FormulaRegressor withFeatures(hyperparameters);
        const Dataset all = datasetFrom(csv, "memory");
        withFeatures.fit(all, {0, 1});
        QCOMPARE(withConstants.predict(ignored), withFeatures.predict(all));
        // The schema asks jobs to predict for the constants as the features they would have been.
        const auto &encoding = withConstants.schema().encoding;
        QCOMPARE(encoding.categoricals.front().column, std::string("family"));
        QCOMPARE(encoding.categoricals.front().categories, std::vector<std::string>{"mlp"});
        QVERIFY(std::find(encoding.numericColumns.begin(), encoding.numericColumns.end(), "batch_size") !=
                encoding.numericColumns.end());
    }

    void missingColumnsAreNamed()
    {
        const Dataset noBatch = datasetFrom("Activations-Params,memory\n\"[('linear', 2, 6)]\",3\n", "memory");
        gpumem::models::FormulaRegressor model(gpumem::models::formulaHyperparameters());
        const auto noBatchError = gpumem::tests::raisedInputError([&] { model.fit(noBatch, {0}); });
        QVERIFY(std::string(noBatchError.what()).find("'Batch Size'") != std::string::npos);
        const Dataset noDepth = datasetFrom("family,batch_size,optimizer,dtype,steps,memory\nmlp,8,sgd,float32,3,1\n"
                                            "mlp,4,sgd,float32,3,2\n",
                                            "memory");
        const auto noDepthError = gpumem::tests::raisedInputError([&] { model.fit(noDepth, {0, 1}); });
        QVERIFY(std::string(noDepthError.what()).find("'input_features'") != std::string::npos);
    }

    void savesAndLoadsThroughTheRegistry()
    {
        const Dataset dataset = datasetFrom(gpuMemNetCsv(1000, 1500), "memory");
        auto model = gpumem::models::createRegressor("formula", gpumem::models::regressorHyperparameters("formula"));
        model->fit(dataset, {0, 1});
        QTemporaryDir folder;
        const std::string directory = folder.filePath("formula").toStdString();
        model->save(directory);
        const auto loaded = gpumem::models::loadRegressor(directory);
        QCOMPARE(QString::fromStdString(loaded->name()), QStringLiteral("formula"));
        QVERIFY(loaded->isFitted());
        QCOMPARE(loaded->predict(dataset), model->predict(dataset));
        QCOMPARE(loaded->schema().encoding.sequenceColumn, std::string("Activations-Params"));
    }
};

QTEST_GUILESS_MAIN(TestFormulaRegressor)
#include "test_FormulaRegressor.moc"
