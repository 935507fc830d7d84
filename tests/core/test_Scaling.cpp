// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/Standardizer.h"
#include "data/TargetTransform.h"
#include "io/InputError.h"

#include <QTest>

#include <cmath>

using gpumem::data::Standardizer, gpumem::data::TargetTransform;

class TestScaling : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void standardizesWithTrainingStatisticsOnly()
    {
        Eigen::MatrixXd features(4, 2);
        // clang-format off
        features << 1, 5,
                    3, 5,
                    5, 5,
                    1000, 9; // a held-out row that must not move the statistics
        // clang-format on
        Standardizer standardizer;
        standardizer.fit(features, {0, 1, 2});
        // Column 0: mean 3, population variance ((-2)² + 0 + 2²)/3 = 8/3.
        QCOMPARE(standardizer.means(), (Eigen::RowVectorXd(2) << 3, 5).finished());
        QCOMPARE(standardizer.scales()[0], std::sqrt(8.0 / 3.0));
        // Column 1 is constant in training: centred, not scaled.
        QCOMPARE(standardizer.scales()[1], 1.0);
        const Eigen::MatrixXd scaled = standardizer.transform(features);
        QCOMPARE(scaled(0, 0), -2.0 / std::sqrt(8.0 / 3.0));
        QCOMPARE(scaled(3, 0), 997.0 / std::sqrt(8.0 / 3.0));
        QCOMPARE(scaled(3, 1), 4.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, standardizer.transform(Eigen::MatrixXd(1, 3)));
    }

    void logScalesOnlyWideNonNegativeColumns()
    {
        Eigen::MatrixXd features(3, 3);
        // clang-format off
        features << 0,    -5, 1,
                    99,   500, 2,
                    999,  7, 3;
        // clang-format on
        Standardizer standardizer;
        standardizer.fit(features, {0, 1, 2}, true);
        // Column 0 is non-negative and exceeds 100; column 1 goes negative; column 2 stays small.
        QCOMPARE(standardizer.logColumns(), (std::vector<bool>{true, false, false}));
        // log1p gives 0, ln 100, ln 1000: mean ln(10^5)/3 = 5 ln 10 / 3.
        QVERIFY(std::fabs(standardizer.means()[0] - 5.0 * std::log(10.0) / 3.0) < 1e-12);
        const Standardizer restored(standardizer.logColumns(), standardizer.means(), standardizer.scales());
        QCOMPARE(restored.transform(features), standardizer.transform(features));
    }

    void transformsTargetAndBack()
    {
        Eigen::VectorXd target(4);
        target << 1023, 4095, 16383, 1e9;
        TargetTransform transform(true);
        transform.fit(target, {0, 1, 2});
        // log1p gives ln 1024, ln 4096, ln 16384 = 10, 12, 14 times ln 2: mean 12 ln 2,
        // population deviation sqrt(8/3) ln 2.
        const double ln2 = std::log(2.0);
        QVERIFY(std::fabs(transform.mean() - 12 * ln2) < 1e-12);
        QVERIFY(std::fabs(transform.scale() - std::sqrt(8.0 / 3.0) * ln2) < 1e-12);
        QVERIFY(std::fabs(transform.forward(4095.0)) < 1e-12);
        const Eigen::VectorXd back = transform.inverse(transform.forward(target));
        for (Eigen::Index i = 0; i < target.size(); ++i)
            QVERIFY(std::fabs(back[i] - target[i]) <= 1e-9 * target[i]);
    }

    void plainTargetIsStandardized()
    {
        Eigen::VectorXd target(3);
        target << 100, 200, 300;
        TargetTransform transform;
        transform.fit(target, {0, 1, 2});
        QCOMPARE(transform.forward(300.0), std::sqrt(1.5));
        QCOMPARE(transform.inverse(0.0), 200.0);
    }

    void log1pRefusesTargetsAtOrBelowMinusOne()
    {
        Eigen::VectorXd target(2);
        target << 5, -1;
        TargetTransform transform(true);
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, transform.fit(target, {0, 1}));
    }
};

QTEST_GUILESS_MAIN(TestScaling)
#include "test_Scaling.moc"
