// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"

#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonWriter.h"
#include "models/RegressorRegistry.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <sstream>

using gpumem::io::Json;

namespace {

const std::vector<std::string> kTreeModels = {"decision_tree", "random_forest", "adaboost"};

bool hasSpec(const gpumem::models::Hyperparameters &hyperparameters, const std::string &name)
{
    const auto &specs = hyperparameters.specs();
    return std::any_of(specs.begin(), specs.end(), [&](const auto &spec) { return spec.name == name; });
}

std::unique_ptr<gpumem::models::Regressor> smallModel(const std::string &name)
{
    auto hyperparameters = gpumem::models::regressorHyperparameters(name);
    if (hasSpec(hyperparameters, "n_estimators"))
        hyperparameters.set("n_estimators", std::int64_t{5});
    gpumem::models::ComputeSettings compute;
    compute.device = "cpu";
    compute.threads = 2;
    return gpumem::models::createRegressor(name, hyperparameters, compute);
}

// The small model of name fitted on the first rows of dataset and saved in directory.
std::unique_ptr<gpumem::models::Regressor> savedSmallModel(const std::string &name,
                                                           const gpumem::data::Dataset &dataset, std::size_t rows,
                                                           const std::string &directory)
{
    auto model = smallModel(name);
    model->fit(dataset, gpumem::tests::firstRows(rows));
    model->save(directory);
    return model;
}

std::vector<std::string> baselines()
{
    // The network has its own tests; formula and allocator_sim need job
    // configurations that this synthetic data does not describe.
    std::vector<std::string> names = gpumem::models::regressorNames();
    for (const char *other : {"bigru_transformer", "formula", "allocator_sim"})
        names.erase(std::remove(names.begin(), names.end(), other), names.end());
    return names;
}

Json readJson(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return gpumem::io::parseJson(text.str(), path);
}

void writeJson(const std::string &path, const Json &value)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << value.dump(2);
}

// Returns metadata with "fitted" changed by change (applied to a copy of the member).
template <typename Change> Json withFitted(const Json &metadata, Change change)
{
    Json copy = metadata;
    change(copy["fitted"]);
    return copy;
}

} // namespace

class TestRegressorRegistry : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void listsTheBaselines()
    {
        const auto names = gpumem::models::regressorNames();
        for (const char *name : {"decision_tree", "random_forest", "adaboost", "ridge"})
            QVERIFY2(std::find(names.begin(), names.end(), name) != names.end(), name);
        QCOMPARE(gpumem::models::regressorTitle("random_forest"), std::string("Random forest"));
        QCOMPARE(gpumem::models::regressorTitle("ridge"), std::string("Ridge regression"));
        QCOMPARE(gpumem::models::regressorHyperparameters("ridge").real("alpha"), 1.0);
        QCOMPARE(gpumem::models::regressorHyperparameters("decision_tree").integer("max_depth"), std::int64_t{0});
        // The reference baseline is one this build compares by default.
        const auto compared = gpumem::models::defaultComparisonModels();
        QVERIFY(std::find(compared.begin(), compared.end(), gpumem::models::referenceBaseline()) != compared.end());
        for (const std::string &name : baselines()) {
            const auto model = smallModel(name);
            QCOMPARE(model->name(), name);
            QVERIFY(!model->isFitted());
        }
    }

    void savedModelsPredictIdentically()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(300, 5.0));
        const auto other = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(40, 5.0, 99));
        QTemporaryDir folder;
        for (const std::string &name : baselines()) {
            const std::string directory = folder.path().toStdString() + "/" + name;
            const auto model = savedSmallModel(name, dataset, 250, directory);
            const auto loaded = gpumem::models::loadRegressor(directory);
            QCOMPARE(loaded->name(), name);
            QVERIFY(loaded->isFitted());
            QCOMPARE(loaded->predict(dataset), model->predict(dataset));
            QCOMPARE(loaded->predict(other), model->predict(other));
            for (const auto &spec : model->hyperparameters().specs())
                QCOMPARE(loaded->hyperparameters().text(spec.name), model->hyperparameters().text(spec.name));
        }
    }

    void damagedModelFilesAreInputErrors()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(100, 5.0));
        QTemporaryDir folder;
        for (const std::string &name : baselines()) {
            const std::string directory = folder.path().toStdString() + "/" + name;
            const auto model = savedSmallModel(name, dataset, 100, directory);
            const std::string path = directory + "/model.json";
            const Json metadata = readJson(path);

            std::vector<Json> damaged = {
                withFitted(metadata, [](Json &fitted) { fitted = nullptr; }),
                withFitted(metadata, [](Json &fitted) { fitted = "trees"; }),
            };
            if (name != "decision_tree")
                damaged.push_back(withFitted(metadata, [](Json &fitted) { fitted = Json::object(); }));
            if (name == "random_forest" || name == "adaboost") {
                damaged.push_back(withFitted(metadata, [](Json &fitted) { fitted["trees"] = Json::array(); }));
                // A tree whose root points back at itself would loop forever.
                damaged.push_back(withFitted(metadata, [](Json &fitted) { fitted["trees"][0]["left"][0] = 0; }));
            }
            if (name == "adaboost")
                damaged.push_back(withFitted(metadata, [](Json &fitted) { fitted["weights"] = Json::array(); }));
            if (name == "ridge")
                damaged.push_back(withFitted(metadata, [](Json &fitted) { fitted["intercept"] = "x"; }));
            if (name == "xgboost")
                damaged.push_back(withFitted(metadata, [](Json &fitted) { fitted["booster"] = "../model.json"; }));
            Json wrongHyperparameter = metadata;
            wrongHyperparameter["hyperparameters"].begin().value() = -5.5;
            damaged.push_back(wrongHyperparameter);

            for (std::size_t index = 0; index < damaged.size(); ++index) {
                writeJson(path, damaged[index]);
                try {
                    gpumem::models::loadRegressor(directory);
                    QFAIL(("no error for damage " + std::to_string(index) + " of " + name).c_str());
                } catch (const gpumem::io::InputError &error) {
                    QCOMPARE(error.file(), path);
                }
            }
            writeJson(path, metadata);
            QVERIFY(gpumem::models::loadRegressor(directory)->isFitted());
        }
    }

    void unknownNamesAreInputErrors()
    {
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::models::regressorHyperparameters("lasso"));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, smallModel("lasso"));
    }
};

QTEST_APPLESS_MAIN(TestRegressorRegistry)
#include "test_RegressorRegistry.moc"
