// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/Json.h"
#include "models/JobRowReader.h"
#include "models/RegressorBase.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gpumem::models {

// The shared part of the models that compute a job's memory from the job
// itself (formula, allocator_sim) instead of learning it from features: each
// row is rebuilt with JobRowReader, the subclass estimates its memory in MiB,
// and fitting only calibrates prediction = scale × estimate + offset on the
// training rows (offset: the CUDA context and everything else outside the
// estimate). Subclasses decide whether the scale is fitted (else it stays 1).
// Saves a model.json like every model folder, with "fitted": {"scale", "offset"}.
class AnalyticRegressor : public RegressorBase
{
  public:
    double scale() const { return mScale; }
    double offset() const { return mOffset; }

    // Public so that subclasses can inherit it (see GPUMEM_REGRESSOR_NAMED); the class itself is abstract.
    AnalyticRegressor(Hyperparameters hyperparameters, ComputeSettings compute = {});

  protected:
    // The job's memory estimate in MiB before calibration.
    virtual double estimateMebibytes(const JobRow &row) const = 0;
    // True when fit() also learns the scale.
    virtual bool fitsScale() const = 0;

  private:
    // Calibrates scale and offset on the estimates of the training rows.
    training::TrainingResult fitRows(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                                     training::TrainingObserver *observer, runtime::OperationControl *control) override;
    Eigen::VectorXd predictFitted(const data::Dataset &dataset) const override;
    // "fitted": {"scale", "offset_mib"}.
    io::Json fittedState(const std::string &folder) const override;
    void readFitted(const io::Json &fitted, const io::Json &metadata, const std::string &directory) override;
    // Estimates the given rows (all when rows is empty), checking control between rows.
    Eigen::VectorXd estimates(const data::Dataset &dataset, const std::vector<Eigen::Index> &rows,
                              training::TrainingObserver *observer, runtime::OperationControl *control,
                              bool &cancelled) const;

    double mScale = 1.0;
    double mOffset = 0.0;
};

} // namespace gpumem::models
