// SPDX-License-Identifier: GPL-3.0-or-later
// The correlations the Data page shows and the likely-outcome check relies on,
// against values computed with scipy.stats (pearsonr, spearmanr) on the same data.
#include "DataTables.h"
#include "data/ColumnRoles.h"
#include "data/Correlations.h"
#include "data/TableLoader.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using gpumem::tests::addColumns;
using gpumem::tests::addRow;
using Values = std::vector<double>;

Q_DECLARE_METATYPE(Values)

namespace {

const double missing = std::numeric_limits<double>::quiet_NaN();

gpumem::data::Table tableOf(const char *csv)
{
    return gpumem::data::loadTableFromText(csv, "jobs.csv");
}

} // namespace

class TestCorrelations : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void matchesScipy_data()
    {
        addColumns<Values, Values, double, double>("x", "y", "pearson", "spearman");
        // Reference values: scipy 1.10 stats.pearsonr(x, y)[0] and stats.spearmanr(x, y)[0].
        addRow("ties share their average rank", Values{1, 2, 2, 3, 5, 5, 5, 8, 9, 10},
               Values{3.5, 1.0, 4.2, 4.2, 6.0, 7.5, 7.5, 9.1, 8.0, 12.0}, 0.9088071487684053, 0.9505053951109216);
        addRow("falling", Values{0.5, 1.5, 2.0, 3.25, 4.0, 6.0, 7.5}, Values{40, 35, 36, 20, 22, 10, 1},
               -0.9830122574996741, -0.9285714285714288);
        addRow("large close values", Values{1.0e9 + 1, 1.0e9 + 2, 1.0e9 + 4, 1.0e9 + 3, 1.0e9 + 8, 1.0e9 + 5},
               Values{7, 9, 12, 10, 20, 14}, 0.997037938439869, 1.0);
        addRow("a valley", Values{-3, -2, -1, 0, 1, 2, 3}, Values{9, 4, 1, 0, 1, 4, 9.5}, 0.030012007204803355,
               0.10910894511799621);
        // scipy on the six rows where both are present (x[2] and y[5] missing).
        addRow("missing values leave their rows out", Values{1, 2, missing, 4, 5, 6, 7, 8},
               Values{2.0, 1.0, 3.0, 5.0, 4.0, missing, 8.0, 7.5}, 0.9335430309704932, 0.8285714285714287);
    }

    void matchesScipy()
    {
        QFETCH(Values, x);
        QFETCH(Values, y);
        QFETCH(double, pearson);
        QFETCH(double, spearman);
        const auto measuredPearson = gpumem::data::pearsonCorrelation(x, y);
        const auto measuredSpearman = gpumem::data::spearmanCorrelation(x, y);
        QVERIFY(measuredPearson && measuredSpearman);
        QVERIFY2(std::abs(*measuredPearson - pearson) < 1e-12, qPrintable(QString::number(*measuredPearson, 'g', 17)));
        QVERIFY2(std::abs(*measuredSpearman - spearman) < 1e-12,
                 qPrintable(QString::number(*measuredSpearman, 'g', 17)));
    }

    void undefinedWithoutVariationOrRows()
    {
        using gpumem::data::pearsonCorrelation;
        using gpumem::data::spearmanCorrelation;
        QVERIFY(!pearsonCorrelation({1, 2, 3, 4}, {5, 5, 5, 5}));
        QVERIFY(!spearmanCorrelation({1, 2, 3, 4}, {5, 5, 5, 5}));
        QVERIFY(!pearsonCorrelation({1, 2, missing, missing}, {1, 2, 3, 4}));
        QVERIFY(!spearmanCorrelation({}, {}));
    }

    void featuresAreSortedAndTextColumnsNamed()
    {
        // memory = 10·batch exactly; layers falls with memory; seed is unrelated noise.
        const auto table = tableOf("optimizer,batch,layers,seed,memory\n"
                                   "adam,1,9,4,10\nsgd,2,7,1,20\nadam,3,8,3,30\nsgd,4,2,2,40\nadam,5,1,5,50\n");
        gpumem::data::RoleRequest request;
        request.target = "memory";
        const auto roles = gpumem::data::assignRoles(table, request);
        const auto correlations = gpumem::data::targetCorrelations(table, roles);
        QCOMPARE(correlations.target, std::string("memory"));
        QCOMPARE(correlations.numeric.size(), std::size_t{3});
        QCOMPARE(correlations.numeric[0].column, std::string("batch"));
        QCOMPARE(correlations.numeric[1].column, std::string("layers"));
        QCOMPARE(correlations.numeric[2].column, std::string("seed"));
        QCOMPARE(*correlations.numeric[0].pearson, 1.0);
        // scipy: pearsonr(layers, memory) = -0.910465468000326, spearmanr = -0.8999999999999998;
        // pearsonr(seed, memory) = spearmanr(seed, memory) = 0.3.
        QVERIFY(std::abs(*correlations.numeric[1].pearson + 0.910465468000326) < 1e-12);
        QVERIFY(std::abs(*correlations.numeric[1].spearman + 0.9) < 1e-12);
        QVERIFY(std::abs(*correlations.numeric[2].pearson - 0.3) < 1e-12);
        QVERIFY(std::abs(*correlations.numeric[2].spearman - 0.3) < 1e-12);
        QCOMPARE(correlations.numeric[2].rows, std::size_t{5});
        QCOMPARE(correlations.notNumeric, std::vector<std::string>{"optimizer"});
    }

    void noNumericTargetNoCorrelations()
    {
        const auto table = tableOf("batch,optimizer\n1,adam\n2,sgd\n3,adam\n");
        // Roles written out: core's own role assignment refuses a text target.
        using gpumem::data::ColumnRole;
        const std::vector<ColumnRole> roles{ColumnRole::Feature, ColumnRole::Target};
        const auto correlations = gpumem::data::targetCorrelations(table, roles);
        QVERIFY(correlations.target.empty());
        QVERIFY(correlations.numeric.empty());
    }

    void sampleThinsToTheLimitInRowOrder()
    {
        std::string csv = "batch,memory\n";
        for (int row = 0; row < 1000; ++row)
            csv += std::to_string(row) + "," + (row == 7 ? std::string("NA") : std::to_string(2 * row)) + "\n";
        const auto table = gpumem::data::loadTableFromText(csv, "jobs.csv");
        const auto sample = gpumem::data::featureTargetSample(table.column(0), table.column(1), 100, 5);
        QCOMPARE(sample.usableRows, std::size_t{999});
        QCOMPARE(sample.feature.size(), std::size_t{100});
        QCOMPARE(sample.target.size(), std::size_t{100});
        for (std::size_t i = 0; i < sample.feature.size(); ++i) {
            QCOMPARE(sample.target[i], 2 * sample.feature[i]);
            QVERIFY(sample.feature[i] != 7.0);
            if (i > 0)
                QVERIFY(sample.feature[i] > sample.feature[i - 1]);
        }
        // The same seed draws the same rows; a limit above the rows keeps them all.
        QCOMPARE(gpumem::data::featureTargetSample(table.column(0), table.column(1), 100, 5).feature, sample.feature);
        QCOMPARE(gpumem::data::featureTargetSample(table.column(0), table.column(1), 5000, 5).feature.size(),
                 std::size_t{999});
    }

    void categoricalFeatureGivesStrips()
    {
        const auto table = tableOf("optimizer,memory\nadam,10\nsgd,20\nadam,30\n,40\nsgd,50\n");
        const auto sample = gpumem::data::featureTargetSample(table.column(0), table.column(1), 100, 1);
        QCOMPARE(sample.categories, (std::vector<std::string>{"adam", "sgd"}));
        QCOMPARE(sample.feature, (Values{0, 1, 0, 1}));
        QCOMPARE(sample.target, (Values{10, 20, 30, 50}));
    }
};

QTEST_APPLESS_MAIN(TestCorrelations)
#include "test_Correlations.moc"
