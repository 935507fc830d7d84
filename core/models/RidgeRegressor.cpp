// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/RidgeRegressor.h"

#include "io/InputError.h"
#include "models/FitProgress.h"
#include "models/HyperparameterSpecs.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include <cmath>
#include <limits>

namespace gpumem::models {

Hyperparameters ridgeHyperparameters()
{
    return Hyperparameters({
        realSpec("alpha", 1.0, 0.0, 1e12, "",
                 "Strength of the L2 penalty on the coefficients; 0 is plain least squares."),
        booleanSpec("fit_intercept", true, "Learn a constant term (features and target are centred first)."),
    });
}

training::TrainingResult RidgeRegressor::fitMatrix(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,
                                                   training::TrainingObserver *observer,
                                                   runtime::OperationControl *control)
{
    if (stopRequested(control))
        return cancelledFit(0, 1, "solves");
    const double alpha = hyperparameters().real("alpha");
    const bool withIntercept = hyperparameters().boolean("fit_intercept");
    Eigen::RowVectorXd featureMeans = Eigen::RowVectorXd::Zero(features.cols());
    double targetMean = 0.0;
    if (withIntercept) {
        featureMeans = features.colwise().mean();
        targetMean = target.mean();
    }
    const Eigen::MatrixXd centred = features.rowwise() - featureMeans;
    Eigen::MatrixXd gram = centred.transpose() * centred;
    gram.diagonal().array() += alpha;
    const Eigen::VectorXd right = centred.transpose() * (target.array() - targetMean).matrix();
    const Eigen::LDLT<Eigen::MatrixXd> factorisation(gram);
    Eigen::VectorXd coefficients = factorisation.solve(right);
    // A pivot that vanishes next to the largest means XᵀX + αI is singular to
    // working precision: LDLT's solution is then one of many, or garbage.
    const Eigen::VectorXd pivots = factorisation.vectorD().cwiseAbs();
    const bool nearlySingular = pivots.size() > 0 && !(pivots.minCoeff() > 1e-12 * pivots.maxCoeff());
    if (factorisation.info() != Eigen::Success || nearlySingular || !coefficients.allFinite()) {
        // Features of very different scales (parameter counts near 1e8 beside
        // 0/1 columns) can make XᵀX + αI numerically singular. Ridge is least
        // squares on X stacked over √α·I (target y stacked over zeros); an
        // orthogonal decomposition of that stack solves it without squaring
        // the condition number, and gives the least-norm solution when α is 0.
        // (A complete orthogonal decomposition compiles in a fraction of the
        // time of an SVD, which dominated the build under sanitizers.)
        const Eigen::Index columns = centred.cols();
        Eigen::MatrixXd stacked(centred.rows() + columns, columns);
        stacked << centred, std::sqrt(alpha) * Eigen::MatrixXd::Identity(columns, columns);
        Eigen::VectorXd stackedTarget = Eigen::VectorXd::Zero(stacked.rows());
        stackedTarget.head(centred.rows()) = (target.array() - targetMean).matrix();
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> decomposition;
        decomposition.setThreshold(1e-12 * static_cast<double>(features.rows()));
        decomposition.compute(stacked);
        coefficients = decomposition.solve(stackedTarget);
    }
    if (!coefficients.allFinite())
        throw io::InputError("ridge regression found no finite solution (are the features finite?)");
    // Features near the largest double overflow the products above even when each value is finite.
    const double intercept = targetMean - featureMeans.dot(coefficients);
    if (!std::isfinite(intercept))
        throw io::InputError("ridge regression overflowed: a feature's values are too large to fit (near 1e308?)");
    mCoefficients = std::move(coefficients);
    mIntercept = intercept;

    return singleStepFit(((features * mCoefficients).array() + mIntercept - target.array()).square().mean(), observer);
}

Eigen::VectorXd RidgeRegressor::predictMatrix(const Eigen::MatrixXd &features) const
{
    if (features.cols() != mCoefficients.size())
        throw io::InputError("the ridge model expects " + std::to_string(mCoefficients.size()) + " features, not " +
                             std::to_string(features.cols()));
    return (features * mCoefficients).array() + mIntercept;
}

io::Json RidgeRegressor::fittedState(const std::string &) const
{
    return {{"intercept", mIntercept},
            {"coefficients", std::vector<double>(mCoefficients.data(), mCoefficients.data() + mCoefficients.size())}};
}

void RidgeRegressor::readFitted(const io::Json &fitted, const io::Json &, const std::string &)
{
    const double intercept = io::toNumber(io::member(fitted, "intercept"));
    const io::Json &items = io::toArray(io::member(fitted, "coefficients"));
    Eigen::VectorXd coefficients(static_cast<Eigen::Index>(items.size()));
    for (std::size_t index = 0; index < items.size(); ++index)
        coefficients(static_cast<Eigen::Index>(index)) = io::toNumber(items[index]);
    if (!std::isfinite(intercept) || !coefficients.allFinite())
        throw io::InputError("ridge coefficients must be finite numbers");
    mCoefficients = std::move(coefficients);
    mIntercept = intercept;
}

} // namespace gpumem::models
