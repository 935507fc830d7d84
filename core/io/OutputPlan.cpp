// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/OutputPlan.h"

#include "io/InputError.h"
#include "io/OutputPaths.h"

#include <filesystem>

namespace gpumem::io {

namespace fs = std::filesystem;

namespace {

struct Identified
{
    std::string path;
    std::string label;
    std::string identity;
};

bool sameFile(const Identified &left, const Identified &right)
{
    if (left.identity == right.identity)
        return true;
    // Hard links share no name, only the file.
    std::error_code error;
    return fs::equivalent(left.identity, right.identity, error) && !error;
}

bool liesInside(const std::string &path, const std::string &folder)
{
    return path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 &&
           (path[folder.size()] == '/' || folder == "/");
}

} // namespace

void OutputPlan::addInput(const std::string &path, const std::string &label)
{
    mInputs.push_back({path, label, false});
}

void OutputPlan::addOutputFile(const std::string &path, const std::string &label)
{
    mOutputs.push_back({path, label, false});
}

void OutputPlan::addOutputFolder(const std::string &path, const std::string &label)
{
    mOutputs.push_back({path, label, true});
}

void OutputPlan::check() const
{
    std::vector<Identified> inputs;
    for (const auto &input : mInputs)
        inputs.push_back({input.path, input.label, pathIdentity(input.path)});
    std::vector<Identified> outputs;
    for (const auto &output : mOutputs) {
        const Identified identified{output.path, output.label, pathIdentity(output.path)};
        // Writing twice through a device, pipe or descriptor, or through one that is also read, destroys nothing.
        if (!output.folder && resolveFileDestination(output.path).method == FileDestination::Method::WriteThrough)
            continue;
        for (const auto &input : inputs) {
            if (sameFile(identified, input))
                throw InputError(output.path, 0, 0,
                                 output.label + " would overwrite the input " + input.label + "; choose another path");
            if (liesInside(identified.identity, input.identity))
                throw InputError(output.path, 0, 0,
                                 output.label + " lies inside the input " + input.label + "; choose a path outside it");
            if (output.folder && liesInside(input.identity, identified.identity))
                throw InputError(output.path, 0, 0,
                                 output.label + " would replace the folder that holds the input " + input.label +
                                     "; choose another path");
        }
        for (const auto &earlier : outputs) {
            if (sameFile(identified, earlier))
                throw InputError(output.path, 0, 0,
                                 earlier.label == output.label
                                     ? "given twice as " + output.label + "; give each output its own path"
                                     : "given as both " + earlier.label + " and " + output.label +
                                           "; give each output its own path");
            if (liesInside(identified.identity, earlier.identity) || liesInside(earlier.identity, identified.identity))
                throw InputError(output.path, 0, 0,
                                 output.label + " and " + earlier.label +
                                     " overlap (one lies inside the other); give each output its own path");
        }
        if (output.folder)
            resolveModelFolderDestination(output.path);
        else
            resolveFileDestination(output.path);
        outputs.push_back(identified);
    }
}

} // namespace gpumem::io
