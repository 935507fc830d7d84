// SPDX-License-Identifier: GPL-3.0-or-later
// Continuing a stopped training of the neural regressor (`gpumem train --resume-from`):
// what the folder's checkpoint must agree with before fit() picks it up.
#include "models/NeuralNetworkImpl.h"

#include "io/InputError.h"
#include "io/Sha256.h"

#include <algorithm>

namespace gpumem::models {

namespace {

// The columns a schema or dataset reads, e.g. "target memory; numeric batch, layers_count; categorical optimizer".
std::string columnsText(const std::string &target, const std::vector<std::string> &numeric,
                        const std::vector<std::string> &categorical, const std::string &sequence)
{
    const auto list = [](const std::vector<std::string> &names) {
        std::string text;
        for (const auto &name : names)
            text += (text.empty() ? "" : ", ") + name;
        return text.empty() ? std::string("none") : text;
    };
    return "target " + target + "; numeric " + list(numeric) + "; categorical " + list(categorical) +
           (sequence.empty() ? std::string() : "; sequence " + sequence);
}

} // namespace

std::string trainingRowsDigest(const std::vector<Eigen::Index> &trainingRows)
{
    std::string text;
    for (Eigen::Index row : trainingRows)
        text += std::to_string(row) + ',';
    return io::sha256Hex(text);
}

void NeuralNetworkRegressor::Impl::checkContinuable(const ModelSchema &schema, const data::Dataset &dataset,
                                                    const std::vector<Eigen::Index> &trainingRows) const
{
    std::vector<std::string> categorical;
    for (const auto &column : schema.encoding.categoricals)
        categorical.push_back(column.column);
    std::vector<std::string> givenCategorical;
    for (const auto &feature : dataset.categoricalFeatures())
        givenCategorical.push_back(feature.name);
    const std::string expected =
        columnsText(schema.target, schema.encoding.numericColumns, categorical, schema.encoding.sequenceColumn);
    const std::string given =
        columnsText(dataset.targetName(), dataset.numericFeatureNames(), givenCategorical, dataset.sequenceName());
    if (given != expected)
        throw io::InputError("the data's columns differ from those the model was trained on (model: " + expected +
                             "; data: " + given + ")");
    if (trainingRows.size() != checkpointRows || trainingRowsDigest(trainingRows) != checkpointRowsDigest)
        throw io::InputError("the training rows differ from those the stopped training used (" +
                             std::to_string(checkpointRows) + " rows then, " + std::to_string(trainingRows.size()) +
                             " now): continue it on the same data, " + io::parameter("test_fraction") + " and seed");
}

void NeuralNetworkRegressor::continueTrainingTo(int epochs)
{
    Impl &impl = *mImpl;
    const auto ensemble = static_cast<std::size_t>(hyperparameters().integer("ensemble"));
    // The more telling reason first: a cancelled ensemble's members may lack training state too.
    if (isFitted() && impl.members.size() != ensemble)
        throw io::InputError("the model holds " + std::to_string(impl.members.size()) + " of its " +
                             std::to_string(ensemble) +
                             " networks (its training was cancelled before the last of them started); train it afresh");
    if (!isFitted() || !impl.holdsTraining())
        throw io::InputError("the model holds no training state to continue (no optimizer state was saved with it)");
    const int done = epochsTrained();
    if (epochs <= done)
        throw io::InputError("the model has trained " + std::to_string(done) +
                             " epochs already; continuing needs more epochs in all than that");
    // The steps still to take must fit beside those taken: otherwise the continued
    // training would save a step count that its own folder refuses.
    const auto batchSize = static_cast<std::size_t>(hyperparameters().integer("batch_size"));
    const auto batches = static_cast<std::int64_t>((impl.checkpointRows + batchSize - 1) / batchSize);
    for (const NetworkMember &member : impl.members) {
        const std::int64_t epochsLeft = epochs - member.checkpoint.epochsDone;
        if (member.checkpoint.step > mostOptimizerSteps - epochsLeft * batches)
            throw io::InputError("the saved training has taken " + std::to_string(member.checkpoint.step) +
                                 " optimizer steps; " + std::to_string(epochsLeft) + " more epochs of " +
                                 std::to_string(batches) + " steps would pass the most a model folder may hold (2^48)");
    }
    changeableHyperparameters().setAssignment("epochs=" + std::to_string(epochs));
    impl.continuing = true;
}

int NeuralNetworkRegressor::epochsTrained() const
{
    // The members of an ensemble may keep different epochs (each its best); a
    // continued training must pass them all.
    int done = 0;
    for (const NetworkMember &member : mImpl->members)
        done = std::max(done, member.checkpoint.epochsDone);
    return mImpl->holdsTraining() ? done : 0;
}

std::uint64_t NeuralNetworkRegressor::seed() const
{
    return compute().seed;
}

} // namespace gpumem::models
