// SPDX-License-Identifier: GPL-3.0-or-later
// Scores the analytic models (formula, allocator_sim) on a CSV of jobs with a
// seeded 80/20 hold-out (evaluation::holdOutSplit(rows, 0.2, 42)): each model is
// calibrated on the training rows and scored on the held-out rows.
//   gpumem_analytic_accuracy DATA.csv TARGET [MODEL[:optimizer] ...] [--ignore COLUMN ...]
// Without models it scores formula and allocator_sim under every assumed optimizer.
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "evaluation/Metrics.h"
#include "evaluation/Splits.h"
#include "models/AnalyticRegressor.h"
#include "models/RegressorRegistry.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    using namespace gpumem;
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: gpumem_analytic_accuracy DATA.csv TARGET [MODEL[:optimizer] ...] [--ignore COLUMN ...]\n");
        return 1;
    }
    try {
        const data::Table table = data::loadTable(argv[1]);
        data::RoleRequest request;
        request.target = argv[2];
        std::vector<std::string> models;
        for (int index = 3; index < argc; ++index) {
            const std::string argument = argv[index];
            if (argument == "--ignore" && index + 1 < argc)
                request.ignored.push_back(argv[++index]);
            else
                models.push_back(argument);
        }
        if (models.empty())
            for (const char *model : {"formula", "allocator_sim"})
                for (const char *optimizer : {"sgd", "sgd_momentum", "adam"})
                    models.push_back(std::string(model) + ":" + optimizer);
        std::vector<std::string> warnings;
        const auto roles = data::assignRoles(table, request);
        const data::Dataset dataset = data::Dataset::fromTable(table, roles, data::BadCellPolicy::DropRow, warnings);
        const evaluation::Split split =
            evaluation::holdOutSplit(static_cast<Eigen::Index>(dataset.rowCount()), 0.2, 42);
        std::printf("%zu rows: %zu train, %zu test\n", dataset.rowCount(), split.train.size(), split.test.size());
        std::printf("%-28s %10s %8s %10s %10s %12s\n", "model", "RMSE MiB", "R2", "MAE MiB", "scale", "offset MiB");
        for (const auto &entry : models) {
            const auto colon = entry.find(':');
            const std::string name = entry.substr(0, colon);
            models::Hyperparameters hyperparameters = models::regressorHyperparameters(name);
            if (colon != std::string::npos)
                hyperparameters.set("assumed_optimizer", entry.substr(colon + 1));
            auto model = models::createRegressor(name, hyperparameters);
            const auto start = std::chrono::steady_clock::now();
            model->fit(dataset, split.train);
            const Eigen::VectorXd predicted = model->predict(dataset);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const auto metrics = evaluation::computeMetrics(dataset.target()(split.test), predicted(split.test));
            const auto *analytic = dynamic_cast<const models::AnalyticRegressor *>(model.get());
            std::printf("%-28s %10.1f %8.4f %10.1f %10.4f %12.1f  (%.1f s)\n", entry.c_str(), metrics.rmse, metrics.r2,
                        metrics.mae, analytic ? analytic->scale() : 1.0, analytic ? analytic->offset() : 0.0, seconds);
        }
        return 0;
    } catch (const std::exception &error) {
        std::fprintf(stderr, "gpumem_analytic_accuracy: %s\n", error.what());
        return 1;
    }
}
