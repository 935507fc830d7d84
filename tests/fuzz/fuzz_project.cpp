// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes, as a workbench project document, to the core readers that
// the project reader (ui/app/ProjectFile.cpp, which is bound to Qt) hands its members
// to, in its order and with its checks: the format and version, the network's
// hyperparameters (models::Hyperparameters::apply), the data member's strings, bad-cell
// policy and roles, the comparison (report::readExperimentResult) and every run
// (runs::RunRecord's from_json). Nothing is read from disk: the data file a project
// names is the CSV loader's, which fuzz_csv_table covers. Only io::InputError may
// come out, and of a run's reader any std::exception, which the project reader
// turns into one.
#include "calibration/MemberSpread.h"
#include "data/Dataset.h"
#include "evaluation/Experiment.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "models/Hyperparameters.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/RegressorRegistry.h"
#include "report/ExperimentJson.h"
#include "runs/RunRecord.h"

#include <array>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::models {

// The registry proper builds LibTorch and Eigen models; the fuzzing build has
// neither. Its names are kept, and every model reads its hyperparameters with the
// network's descriptions, the one set compiled in, so that an item's
// "hyperparameters" still goes through apply().
Hyperparameters regressorHyperparameters(const std::string &name)
{
    constexpr std::array<std::string_view, 8> names{"bigru_transformer", "decision_tree", "random_forest",
                                                    "adaboost",          "xgboost",       "ridge",
                                                    "formula",           "allocator_sim"};
    for (const std::string_view known : names)
        if (name == known)
            return neuralNetworkHyperparameters();
    throw io::InputError("unknown model '" + name + "'");
}

// Named by the comparison's writer, which shares the reader's source file.
std::string regressorLibrary(const std::string &name)
{
    return name == "bigru_transformer" ? "LibTorch" : "Eigen";
}

} // namespace gpumem::models

namespace gpumem::calibration {

// Fitting a calibration is no part of reading one; its source needs the network.
double fitSpreadFloor(const Eigen::VectorXd & /*spread*/, const std::vector<Eigen::Index> & /*fitRows*/)
{
    throw io::InputError("a project's calibration is read, never fitted");
}

} // namespace gpumem::calibration

namespace {

using gpumem::io::Json;

const std::string kSource = "fuzz.gpumem";

// What the project reader does with its "data" member, short of opening the file.
void readData(const Json &project)
{
    const Json &data = gpumem::io::member(project, "data");
    gpumem::io::toString(gpumem::io::member(data, "path"));
    if (const Json *relative = gpumem::io::findMember(data, "relative_path"))
        gpumem::io::toString(*relative);
    if (const Json *recorded = gpumem::io::findMember(data, "sha256"))
        gpumem::io::toString(*recorded);
    gpumem::data::parseBadCellPolicy(gpumem::io::toString(gpumem::io::member(data, "bad_cell_policy")));
    for (const auto &[name, value] : gpumem::io::toObject(gpumem::io::member(data, "roles")).items())
        gpumem::io::toString(value);
}

void readProject(const Json &project)
{
    const Json *format = gpumem::io::findMember(project, "format");
    if (!format || !format->is_string() || gpumem::io::toString(*format) != "gpumem-workbench-project")
        return;
    if (gpumem::io::numberOr(project, "version", 0) > 2)
        return;
    gpumem::models::Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
    hyperparameters.set("ensemble", std::int64_t{1});
    hyperparameters.apply(gpumem::io::member(project, "hyperparameters"), kSource);
    gpumem::io::toString(gpumem::io::member(project, "preset"));
    readData(project);
    if (const Json *comparison = gpumem::io::findMember(project, "comparison");
        comparison && !comparison->is_null() && gpumem::io::numberOr(project, "version", 0) >= 2)
        gpumem::report::readExperimentResult(*comparison, kSource);
    if (const Json *runs = gpumem::io::findMember(project, "runs"))
        for (const auto &run : gpumem::io::toArray(*runs)) {
            try {
                run.get<gpumem::runs::RunRecord>();
            } catch (const gpumem::io::InputError &) {
                throw;
            } catch (const std::exception &error) {
                throw gpumem::io::InputError(kSource, 0, 0, error.what());
            }
        }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    try {
        readProject(gpumem::io::parseJson(std::string_view(reinterpret_cast<const char *>(data), size), kSource));
    } catch (const gpumem::io::InputError &) {
    }
    return 0;
}
