// SPDX-License-Identifier: GPL-3.0-or-later
#include "ModelsConfig.h"

#ifdef GPUMEM_WITH_XGBOOST

#include "models/XGBoostRegressor.h"

#include "io/InputError.h"
#include "models/FitProgress.h"
#include "models/HyperparameterSpecs.h"
#include "models/ModelFolder.h"
#include "models/XGBoostBoosterCheck.h"
#include "runtime/Stopwatch.h"

#include <xgboost/c_api.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace gpumem::models {

namespace {

const char *const kBoosterFile = "booster.json";

// Turns a failed C API call into the error the user sees, with the library's reason.
void check(int status, const std::string &what)
{
    if (status != 0)
        throw io::InputError("XGBoost could not " + what + ": " + XGBGetLastError());
}

std::shared_ptr<void> ownedBooster(BoosterHandle handle)
{
    return std::shared_ptr<void>(handle, [](void *booster) { XGBoosterFree(booster); });
}

// A DMatrix of features converted to the single precision XGBoost learns in; freed when it goes.
class FeatureMatrix
{
  public:
    explicit FeatureMatrix(const Eigen::MatrixXd &features)
    {
        using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        const RowMajor values = features.cast<float>();
        check(XGDMatrixCreateFromMat(values.data(), static_cast<bst_ulong>(values.rows()),
                                     static_cast<bst_ulong>(values.cols()), std::numeric_limits<float>::quiet_NaN(),
                                     &mHandle),
              "take the feature matrix");
    }
    ~FeatureMatrix() { XGDMatrixFree(mHandle); }
    FeatureMatrix(const FeatureMatrix &) = delete;
    FeatureMatrix &operator=(const FeatureMatrix &) = delete;

    DMatrixHandle handle() const { return mHandle; }

  private:
    DMatrixHandle mHandle = nullptr;
};

void setParameter(BoosterHandle booster, const char *name, const std::string &value)
{
    check(XGBoosterSetParam(booster, name, value.c_str()), std::string("set ") + name + " to " + value);
}

std::string numberText(double value)
{
    std::ostringstream text;
    text.imbue(std::locale::classic());
    text.precision(17);
    text << value;
    return text.str();
}

// Reads the training RMSE from an evaluation line such as "[3]\ttrain-rmse:12.5".
double trainingRmse(const char *line)
{
    const std::string text = line ? line : "";
    const std::string marker = "train-rmse:";
    const std::size_t at = text.find(marker);
    if (at == std::string::npos)
        return std::numeric_limits<double>::quiet_NaN();
    std::istringstream number(text.substr(at + marker.size()));
    number.imbue(std::locale::classic());
    double value = std::numeric_limits<double>::quiet_NaN();
    number >> value;
    return number ? value : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

Hyperparameters xgboostHyperparameters()
{
    return Hyperparameters({
        integerSpec("n_estimators", 100, 1, 100000, "rounds", "Boosting rounds, one tree each."),
        integerSpec("max_depth", 6, 0, 100, "levels", "Deepest level of each tree; 0 sets no limit (hist only)."),
        realSpec("learning_rate", 0.3, 1e-6, 1.0, "", "Shrinks each tree's contribution (eta)."),
        realSpec("subsample", 1.0, 1e-6, 1.0, "", "Share of the training rows drawn for each tree."),
        realSpec("colsample_bytree", 1.0, 1e-6, 1.0, "", "Share of the features drawn for each tree."),
        realSpec("min_child_weight", 1.0, 0.0, 1e9, "",
                 "Smallest sum of hessians (for squared error: rows) a child must keep."),
        realSpec("reg_lambda", 1.0, 0.0, 1e9, "", "L2 penalty on the leaf values."),
        realSpec("reg_alpha", 0.0, 0.0, 1e9, "", "L1 penalty on the leaf values."),
        choiceSpec("tree_method", "auto", {"auto", "exact", "approx", "hist"},
                   "How splits are searched: auto lets xgboost 1.7 choose (exact on small data, as its Python "
                   "package does), exact tries every value, approx and hist use quantile bins."),
    });
}

training::TrainingResult XGBoostRegressor::fitMatrix(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,
                                                     training::TrainingObserver *observer,
                                                     runtime::OperationControl *control)
{
    const int rounds = static_cast<int>(hyperparameters().integer("n_estimators"));
    const runtime::Stopwatch time;
    FeatureMatrix training(features);
    const Eigen::VectorXf labels = target.cast<float>();
    check(XGDMatrixSetFloatInfo(training.handle(), "label", labels.data(), static_cast<bst_ulong>(labels.size())),
          "take the target");
    DMatrixHandle matrices[] = {training.handle()};
    BoosterHandle handle = nullptr;
    check(XGBoosterCreate(matrices, 1, &handle), "create a booster");
    std::shared_ptr<void> booster = ownedBooster(handle);

    setParameter(handle, "verbosity", "0");
    setParameter(handle, "objective", "reg:squarederror");
    setParameter(handle, "eval_metric", "rmse");
    setParameter(handle, "nthread", std::to_string(std::max(1, compute().threads)));
    // The library keeps seeds in a signed integer; the low 31 bits of ours always fit.
    setParameter(handle, "seed", std::to_string(compute().seed & 0x7fffffffULL));
    setParameter(handle, "max_depth", std::to_string(hyperparameters().integer("max_depth")));
    for (const char *name :
         {"learning_rate", "subsample", "colsample_bytree", "min_child_weight", "reg_lambda", "reg_alpha"})
        setParameter(handle, name, numberText(hyperparameters().real(name)));
    setParameter(handle, "tree_method", hyperparameters().choice("tree_method"));

    training::TrainingResult result;
    const char *names[] = {"train"};
    for (int round = 0; round < rounds; ++round) {
        if (stopRequested(control))
            return cancelledFit(round, rounds, "rounds");
        check(XGBoosterUpdateOneIter(handle, round, training.handle()),
              "run boosting round " + std::to_string(round + 1));
        const char *evaluation = nullptr;
        check(XGBoosterEvalOneIter(handle, round, matrices, names, 1, &evaluation), "evaluate the training rows");
        const double rmse = trainingRmse(evaluation);

        result.epochs.push_back(stepProgress(round + 1, rounds, rmse * rmse, time));
        if (observer)
            observer->epochFinished(result.epochs.back());
    }
    result.bestEpoch = rounds;
    mBooster = std::move(booster);
    mFeatureCount = features.cols();
    mRounds = rounds;
    return result;
}

Eigen::VectorXd XGBoostRegressor::predictMatrix(const Eigen::MatrixXd &features) const
{
    if (!mBooster)
        throwNotTrained(name());
    if (features.cols() != mFeatureCount)
        throw io::InputError("the xgboost model expects " + std::to_string(mFeatureCount) + " features, not " +
                             std::to_string(features.cols()));
    if (features.rows() == 0)
        return Eigen::VectorXd();
    FeatureMatrix matrix(features);
    bst_ulong length = 0;
    const float *values = nullptr;
    check(XGBoosterPredict(mBooster.get(), matrix.handle(), 0, 0, 0, &length, &values), "predict");
    if (length != static_cast<bst_ulong>(features.rows()))
        throw io::InputError("XGBoost returned " + std::to_string(length) + " predictions for " +
                             std::to_string(features.rows()) + " rows");
    return Eigen::Map<const Eigen::VectorXf>(values, features.rows()).cast<double>();
}

io::Json XGBoostRegressor::fittedState(const std::string &folder) const
{
    const std::string path = folder + "/" + kBoosterFile;
    check(XGBoosterSaveModel(mBooster.get(), path.c_str()), "save the booster to " + path);
    return {{"booster", kBoosterFile}, {"features", static_cast<std::int64_t>(mFeatureCount)}, {"rounds", mRounds}};
}

void XGBoostRegressor::readFitted(const io::Json &fitted, const io::Json &metadata, const std::string &directory)
{
    // Only the file this model writes is read, so model.json cannot point outside its folder.
    if (io::toString(io::member(fitted, "booster")) != kBoosterFile)
        throw io::InputError(std::string("the XGBoost booster file must be ") + kBoosterFile);
    const double features = io::toNumber(io::member(fitted, "features"));
    const double rounds = io::toNumber(io::member(fitted, "rounds"));
    if (features != std::floor(features) || features < 0.0 || features > 1e6 || rounds != std::floor(rounds) ||
        rounds < 1.0 || rounds > 1e6)
        throw io::InputError("the XGBoost feature and round counts must be whole numbers");
    const std::string path = directory + "/" + kBoosterFile;
    // The bytes handed to XGBoost are the ones whose digest model.json records.
    const std::string boosterJson = readRecordedFile(metadata, directory, kBoosterFile);
    // A digest proves nothing once someone recomputes it; XGBoost trusts every index it reads.
    checkBoosterJson(boosterJson, static_cast<std::int64_t>(features), path);
    BoosterHandle handle = nullptr;
    check(XGBoosterCreate(nullptr, 0, &handle), "create a booster");
    std::shared_ptr<void> booster = ownedBooster(handle);
    setParameter(handle, "verbosity", "0");
    if (XGBoosterLoadModelFromBuffer(handle, boosterJson.data(), static_cast<bst_ulong>(boosterJson.size())) != 0)
        throw io::InputError(path, 0, 0, std::string("XGBoost cannot read the booster: ") + XGBGetLastError());
    setParameter(handle, "nthread", std::to_string(std::max(1, compute().threads)));
    mBooster = std::move(booster);
    mFeatureCount = static_cast<Eigen::Index>(features);
    mRounds = static_cast<int>(rounds);
}

} // namespace gpumem::models

#endif // GPUMEM_WITH_XGBOOST
