// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the tabular baselines on the folds of 5-fold cross-validation (seed 42)
// of the GPUMemNet MLP data, with the features of the reference table in
// ../shared/datasets/README.md (six numeric columns plus the one-hot activation
// function, no layer sequence), and writes what bench/fidelity_reference.py
// needs to run scikit-learn and XGBoost on the very same folds:
//   OUT/folds.csv  file line and fold of every row
//   OUT/ours.csv   model, fold, RMSE, R², fit seconds
//   gpumem_baseline_fidelity DATA.csv OUT [THREADS] [MODEL,MODEL,…]
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "evaluation/Metrics.h"
#include "evaluation/Splits.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "models/RegressorRegistry.h"

#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kFolds = 5;
constexpr std::uint64_t kSeed = 42;

std::vector<std::string> modelsToRun(int argc, char **argv)
{
    std::vector<std::string> names;
    if (argc > 4) {
        std::stringstream list(argv[4]);
        for (std::string name; std::getline(list, name, ',');)
            names.push_back(name);
        return names;
    }
    for (const std::string &name : gpumem::models::regressorNames())
        if (name != "bigru_transformer")
            names.push_back(name);
    return names;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: gpumem_baseline_fidelity DATA.csv OUT_DIR [THREADS] [MODEL,MODEL,...]\n");
        return 1;
    }
    try {
        const std::string outDirectory = argv[2];
        const auto table = gpumem::data::loadTable(argv[1]);
        gpumem::data::RoleRequest request;
        request.target = "Max GPU Memory (MiB)";
        request.features = {
            "Depth",          "Total Activations",  "Total Parameters", "Batch Size", "Batch Normalization Layers",
            "Dropout Layers", "Activation Function"};
        request.ignored = {"Activations-Params"};
        std::vector<std::string> warnings;
        const auto dataset = gpumem::data::Dataset::fromTable(table, gpumem::data::assignRoles(table, request),
                                                              gpumem::data::BadCellPolicy::Fail, warnings);
        const auto splits =
            gpumem::evaluation::kFoldSplits(static_cast<Eigen::Index>(dataset.rowCount()), kFolds, kSeed);

        std::vector<int> foldOf(dataset.rowCount(), -1);
        for (int fold = 0; fold < kFolds; ++fold)
            for (const Eigen::Index row : splits[static_cast<std::size_t>(fold)].test)
                foldOf[static_cast<std::size_t>(row)] = fold;
        std::ostringstream folds;
        folds << "line,fold\n";
        for (std::size_t row = 0; row < dataset.rowCount(); ++row)
            folds << dataset.rowLines()[row] << ',' << foldOf[row] << '\n';
        gpumem::io::writeFileAtomically(outDirectory + "/folds.csv", folds.str());

        gpumem::models::ComputeSettings compute;
        compute.device = "cpu";
        compute.seed = kSeed;
        compute.threads = argc > 3 ? std::max(1, std::stoi(argv[3])) : 1;
        std::ostringstream ours;
        ours.precision(10);
        ours << "model,fold,rmse,r2,fit_seconds\n";
        for (const std::string &name : modelsToRun(argc, argv)) {
            double rmseSum = 0.0;
            double secondsSum = 0.0;
            for (int fold = 0; fold < kFolds; ++fold) {
                const auto &split = splits[static_cast<std::size_t>(fold)];
                auto model =
                    gpumem::models::createRegressor(name, gpumem::models::regressorHyperparameters(name), compute);
                const auto start = std::chrono::steady_clock::now();
                model->fit(dataset, split.train);
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                const Eigen::VectorXd predicted = model->predict(dataset)(split.test);
                const Eigen::VectorXd actual = dataset.target()(split.test);
                const auto metrics = gpumem::evaluation::computeMetrics(actual, predicted);
                ours << name << ',' << fold << ',' << metrics.rmse << ',' << metrics.r2 << ',' << seconds << '\n';
                rmseSum += metrics.rmse;
                secondsSum += seconds;
            }
            std::printf("%-14s mean RMSE %8.2f MiB  fit %.3f s per fold\n", name.c_str(), rmseSum / kFolds,
                        secondsSum / kFolds);
        }
        gpumem::io::writeFileAtomically(outDirectory + "/ours.csv", ours.str());
        return 0;
    } catch (const std::exception &error) {
        std::fprintf(stderr, "gpumem_baseline_fidelity: %s\n", error.what());
        return 1;
    }
}
