// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"

#include "models/RidgeRegressor.h"

#include <QTest>

#include <array>
#include <cmath>
#include <vector>

using gpumem::models::ridgeHyperparameters;
using gpumem::models::RidgeRegressor;

namespace {

bool near(double left, double right)
{
    return std::abs(left - right) < 1e-9 * std::max(1.0, std::abs(right));
}

} // namespace

class TestRidgeRegressor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void oneFeatureMatchesTheClosedForm()
    {
        // x = 1 2 3 4, y = 2 3 5 6: means 2.5 and 4, Sxx = 5, Sxy = 7. With an
        // intercept the slope is Sxy / (Sxx + alpha) and the intercept 4 − 2.5·slope:
        // alpha 1 → 7/6 and 1.0833…; alpha 0 → 7/5 and 0.5.
        const auto dataset = gpumem::tests::baselineDataset("x,memory\n1,2\n2,3\n3,5\n4,6\n");
        for (const double alpha : {1.0, 0.0, 10.0}) {
            auto hyperparameters = ridgeHyperparameters();
            hyperparameters.set("alpha", alpha);
            RidgeRegressor ridge(hyperparameters, {});
            ridge.fit(dataset, gpumem::tests::firstRows(4));
            const double slope = 7.0 / (5.0 + alpha);
            QVERIFY(near(ridge.coefficients()(0), slope));
            QVERIFY(near(ridge.intercept(), 4.0 - 2.5 * slope));
            QVERIFY(near(ridge.predict(dataset)(3), 4.0 - 2.5 * slope + 4.0 * slope));
        }
    }

    void withoutInterceptNothingIsCentred()
    {
        // Through the origin: slope = Σxy / (Σx² + alpha) = (2 + 6 + 15 + 24) / (30 + 1) = 47/31.
        const auto dataset = gpumem::tests::baselineDataset("x,memory\n1,2\n2,3\n3,5\n4,6\n");
        auto hyperparameters = ridgeHyperparameters();
        hyperparameters.set("fit_intercept", false);
        RidgeRegressor ridge(hyperparameters, {});
        ridge.fit(dataset, gpumem::tests::firstRows(4));
        QVERIFY(near(ridge.coefficients()(0), 47.0 / 31.0));
        QCOMPARE(ridge.intercept(), 0.0);
    }

    void duplicateFeaturesWithoutPenaltyShareTheWeight()
    {
        // b repeats a, so with alpha 0 XᵀX is singular and every w_a + w_b = 2 fits
        // y = 2a; the least-norm solution splits it: w_a = w_b = 1, intercept 0.
        const auto dataset = gpumem::tests::baselineDataset("a,b,memory\n1,1,2\n2,2,4\n3,3,6\n5,5,10\n");
        auto hyperparameters = ridgeHyperparameters();
        hyperparameters.set("alpha", 0.0);
        RidgeRegressor ridge(hyperparameters, {});
        ridge.fit(dataset, gpumem::tests::firstRows(4));
        QVERIFY(std::abs(ridge.coefficients()(0) - 1.0) < 1e-9);
        QVERIFY(std::abs(ridge.coefficients()(1) - 1.0) < 1e-9);
        QVERIFY(std::abs(ridge.intercept()) < 1e-8);
    }

    void featuresOfVeryDifferentScalesSolveTheNormalEquations()
    {
        // A column near 1e8 beside a 0/1 column: XᵀX + αI has pivots 16 orders of
        // magnitude apart, which the solver must not trust. Whatever it does, the
        // coefficients must satisfy (XcᵀXc + αI)·w = Xcᵀyc, checked here in long double.
        const std::vector<std::array<long double, 3>> rows = {
            {0.0L, 0.0L, 1.0L}, {1e8L, 1.0L, 6.0L}, {2e8L, 0.0L, 5.0L}, {3e8L, 1.0L, 10.0L}, {4e8L, 1.0L, 12.0L}};
        const auto dataset =
            gpumem::tests::baselineDataset("big,flag,memory\n0,0,1\n1e8,1,6\n2e8,0,5\n3e8,1,10\n4e8,1,12\n");
        RidgeRegressor ridge(ridgeHyperparameters(), {});
        ridge.fit(dataset, gpumem::tests::firstRows(5));
        std::array<long double, 3> means{};
        for (const auto &row : rows)
            for (std::size_t column = 0; column < 3; ++column)
                means[column] += row[column] / rows.size();
        const long double alpha = ridgeHyperparameters().real("alpha");
        for (std::size_t equation = 0; equation < 2; ++equation) {
            long double left = alpha * ridge.coefficients()(static_cast<Eigen::Index>(equation));
            long double right = 0.0L;
            for (const auto &row : rows) {
                const long double x = row[equation] - means[equation];
                long double fitted = 0.0L;
                for (std::size_t column = 0; column < 2; ++column)
                    fitted += (row[column] - means[column]) * ridge.coefficients()(static_cast<Eigen::Index>(column));
                left += x * fitted;
                right += x * (row[2] - means[2]);
            }
            QVERIFY2(std::abs(left - right) <= 1e-9L * std::abs(right), qPrintable(QString::number(equation)));
        }
    }

    void twoFeaturesMatchCramersRule()
    {
        // Centred x1 = −1 0 1 0, x2 = 0 −1 0 1 (means 1 and 1), y = 1 2 5 4
        // (mean 3, centred −2 −1 2 1). XᵀX = diag(2, 2), Xᵀy = (4, 2); with alpha 1
        // the coefficients are 4/3 and 2/3, the intercept 3 − 4/3 − 2/3 = 1.
        const auto dataset = gpumem::tests::baselineDataset("p,q,memory\n0,1,1\n1,0,2\n2,1,5\n1,2,4\n");
        RidgeRegressor ridge(ridgeHyperparameters(), {});
        ridge.fit(dataset, gpumem::tests::firstRows(4));
        QVERIFY(near(ridge.coefficients()(0), 4.0 / 3.0));
        QVERIFY(near(ridge.coefficients()(1), 2.0 / 3.0));
        QVERIFY(near(ridge.intercept(), 1.0));
    }

    void recoversALinearRule()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(300, 0.0));
        auto hyperparameters = ridgeHyperparameters();
        hyperparameters.set("alpha", 1e-9);
        RidgeRegressor ridge(hyperparameters, {});
        ridge.fit(dataset, gpumem::tests::firstRows(300));
        // Columns: a, b, kind=large, kind=small (one-hot): the two kinds differ by 50.
        QVERIFY(std::abs(ridge.coefficients()(0) - 3.0) < 1e-3);
        QVERIFY(std::abs(ridge.coefficients()(1) + 2.0) < 1e-3);
        QVERIFY(gpumem::tests::rootMeanSquare(ridge.predict(dataset), dataset.target()) < 1e-2);
    }
};

QTEST_APPLESS_MAIN(TestRidgeRegressor)
#include "test_RidgeRegressor.moc"
