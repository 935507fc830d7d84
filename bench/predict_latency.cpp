// SPDX-License-Identifier: GPL-3.0-or-later
// Measures how long a saved model takes to predict one job on the CPU, as a
// scheduler calling it per job would: the model loaded once, then one-row
// predictions repeated. Prints the median and 90th percentile in milliseconds.
//   gpumem_predict_latency MODEL_DIR DATA.csv [REPETITIONS]
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "io/InputError.h"
#include "models/NeuralNetworkRegressor.h"
#include "prediction/Predictor.h"
#include "runtime/ThreadSettings.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: gpumem_predict_latency MODEL_DIR DATA.csv [REPETITIONS]\n");
        return 1;
    }
    try {
        const int repetitions = argc > 3 ? std::max(1, std::stoi(argv[3])) : 2000;
        gpumem::runtime::setComputeThreads(1);
        gpumem::models::ComputeSettings cpu;
        cpu.device = "cpu";
        const auto model = gpumem::models::NeuralNetworkRegressor::load(argv[1], cpu);
        const auto table = gpumem::data::loadTable(argv[2]);
        const auto roles = gpumem::data::assignRoles(table, gpumem::prediction::rolesForModel(model.schema(), table));
        std::vector<double> milliseconds;
        for (int repetition = 0; repetition < repetitions; ++repetition) {
            // A different job each time, as a scheduler would send.
            const std::size_t row = static_cast<std::size_t>(repetition) % table.rowCount();
            const auto dataset = gpumem::data::Dataset::fromTable(table, roles, {row});
            const auto start = std::chrono::steady_clock::now();
            const auto prediction = model.predict(dataset);
            milliseconds.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            if (!(prediction[0] > 0.0))
                throw std::runtime_error("unexpected prediction");
        }
        std::sort(milliseconds.begin(), milliseconds.end());
        std::printf("one-row prediction over %d runs: median %.3f ms, p90 %.3f ms\n", repetitions,
                    milliseconds[milliseconds.size() / 2], milliseconds[milliseconds.size() * 9 / 10]);
        return 0;
    } catch (const std::exception &error) {
        std::fprintf(stderr, "gpumem_predict_latency: %s\n", error.what());
        return 1;
    }
}
