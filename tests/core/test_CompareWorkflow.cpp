// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/InputError.h"
#include "models/RegressorRegistry.h"
#include "workflows/CompareWorkflow.h"

#include <QTest>

using namespace gpumem;

class TestCompareWorkflow : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // The Compare page decided by the name "bigru_transformer" which model took the
    // Model page's values; the command line did the same through its options.
    void theNetworkTakesTheGivenValuesAndTheOthersTheirDefaults()
    {
        models::Hyperparameters network = models::regressorHyperparameters("bigru_transformer");
        network.setAssignment("epochs=3");
        const std::vector<evaluation::ModelSpec> specs =
            workflows::comparedModels({"bigru_transformer", "ridge", "decision_tree"}, network);
        QCOMPARE(specs.size(), std::size_t{3});
        QCOMPARE(specs[0].name, std::string("bigru_transformer"));
        QCOMPARE(specs[0].hyperparameters.integer("epochs"), std::int64_t{3});
        QCOMPARE(specs[1].name, std::string("ridge"));
        QCOMPARE(specs[1].hyperparameters.text("alpha"), models::regressorHyperparameters("ridge").text("alpha"));
        QCOMPARE(specs[2].name, std::string("decision_tree"));
    }

    void refusesAModelNamedTwice()
    {
        const models::Hyperparameters network = models::regressorHyperparameters("bigru_transformer");
        QVERIFY_THROWS_EXCEPTION(io::InputError, workflows::comparedModels({"ridge", "ridge"}, network));
        QVERIFY_THROWS_EXCEPTION(io::InputError, workflows::comparedModels({"svm"}, network));
    }
};

QTEST_GUILESS_MAIN(TestCompareWorkflow)
#include "test_CompareWorkflow.moc"
