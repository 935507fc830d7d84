#include "models/TabularRegressor.h"

#include "io/AtomicDirectoryWriter.h"
#include "io/InputError.h"
#include "models/ModelFolder.h"
#include "runtime/LibraryVersions.h"

#include <chrono>
#include <fstream>

namespace gpumem::models {

TabularRegressor::TabularRegressor(Hyperparameters hyperparameters, ComputeSettings compute)
    : mHyperparameters(std::move(hyperparameters))
    , mCompute(std::move(compute))
{
}

training::TrainingResult TabularRegressor::fit(const data::Dataset &dataset,
                                               const std::vector<Eigen::Index> &trainingRows,
                                               training::TrainingObserver *observer, training::TrainingControl *control)
{
    if (!dataset.hasTarget())
        throw io::InputError("the data has no target column to learn from");
    if (trainingRows.empty())
        throw io::InputError("no training rows to learn from");
    const auto start = std::chrono::steady_clock::now();
    mFitted = false;
    mEncoder = data::FeatureEncoder();
    mEncoder.fit(dataset, trainingRows);
    mSchema = {dataset.targetName(), mEncoder.encoding()};

    const Eigen::MatrixXd encoded = mEncoder.transform(dataset);
    const Eigen::MatrixXd features = encoded(trainingRows, Eigen::all);
    const Eigen::VectorXd target = dataset.target()(trainingRows);
    training::TrainingResult result = fitMatrix(features, target, observer, control);
    mFitted = result.stopReason != training::StopReason::Cancelled;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

Eigen::VectorXd TabularRegressor::predict(const data::Dataset &dataset) const
{
    if (!mFitted)
        throw io::InputError("the " + name() + " model has not been trained");
    return predictMatrix(mEncoder.transform(dataset));
}

void TabularRegressor::save(const std::string &directory) const
{
    if (!mFitted)
        throw io::InputError("the " + name() + " model has not been trained");
    io::AtomicDirectoryWriter folder(directory);
    const std::string metadataPath = folder.filePath("model.json");
    std::ofstream out(metadataPath, std::ios::binary);
    io::JsonWriter json(out);
    json.beginObject();
    writeModelHeader(json, name());
    json.key("hyperparameters");
    mHyperparameters.writeValues(json);
    json.key("seed").value(static_cast<std::int64_t>(mCompute.seed));
    writeSchema(json, mSchema);
    json.key("fitted");
    writeFitted(json, folder.path());
    runtime::writeLibraryVersions(json);
    json.endObject();
    out.close();
    if (!out)
        throw io::InputError(metadataPath, 0, 0, "cannot write (disk full?)");
    folder.commit();
}

void TabularRegressor::restore(const io::JsonValue &metadata, const std::string &directory)
{
    const std::string metadataPath = directory + "/model.json";
    try {
        mHyperparameters.apply(metadata.at("hyperparameters"), metadataPath);
        mCompute.seed = static_cast<std::uint64_t>(metadata.at("seed").toNumber());
        mSchema = readSchema(metadata);
        mEncoder = data::FeatureEncoder(mSchema.encoding);
        readFitted(metadata.at("fitted"), directory);
    } catch (const io::InputError &error) {
        if (!error.file().empty())
            throw;
        throw io::InputError(metadataPath, 0, 0, error.message());
    }
    mFitted = true;
}

} // namespace gpumem::models
