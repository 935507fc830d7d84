// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes, as a workbench project document, to core's project reader
// (workflows::readProjectJson, which core/workflows/ProjectFile.cpp calls before it
// opens anything the project names): the format and version, the network's
// hyperparameters, the data member's strings, bad-cell policy and roles, the
// comparison, its report header and every run. Nothing is read from disk: the data
// file a project names is the CSV loader's, which fuzz_csv_table covers. Only
// io::InputError may come out.
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
#include "runtime/LibraryVersions.h"
#include "workflows/ProjectDocument.h"

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

namespace gpumem::runtime {

// Named by the comparison report's writer, which shares the report header's reader's
// source file; a project never writes a report, and the versions need LibTorch.
const LibraryVersions &libraryVersions()
{
    static const LibraryVersions versions;
    return versions;
}

void to_json(io::Json &json, const LibraryVersions & /*versions*/)
{
    json = io::Json::object();
}

} // namespace gpumem::runtime

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    try {
        const std::string source = "fuzz.gpumem";
        gpumem::workflows::readProjectJson(
            gpumem::io::parseJson(std::string_view(reinterpret_cast<const char *>(data), size), source), source);
    } catch (const gpumem::io::InputError &) {
    }
    return 0;
}
