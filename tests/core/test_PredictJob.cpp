// SPDX-License-Identifier: GPL-3.0-or-later
// One job predicted from its values (the Predict page's form) gets exactly what the
// same job gets as a row of a file (`gpumem predict`): prediction, upper bound and
// extrapolations.
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "calibration/CalibratedFit.h"
#include "data/ColumnRoles.h"
#include "data/CsvReader.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "models/RegressorRegistry.h"
#include "prediction/FilePrediction.h"
#include "prediction/JobPrediction.h"

#include <QTest>

#include <fstream>
#include <string>
#include <vector>

namespace {

const std::string kJobs = dataFile("jobs_training.csv"); // run,batch,optimizer,layers,memory_mib

// Every record of the file as its cells' text, the header first.
std::vector<std::vector<std::string>> records(const std::string &path)
{
    std::ifstream in(path);
    gpumem::data::CsvReader reader(in, path);
    std::vector<std::vector<std::string>> all;
    std::vector<std::string> fields;
    while (reader.readRecord(fields))
        all.push_back(fields);
    return all;
}

// A job's values as the Predict page's form holds them: the number of a numeric cell, the text of the others.
gpumem::prediction::JobValues valuesOf(const std::vector<std::string> &record)
{
    return {{"batch", std::stod(record[1])}, {"optimizer", record[2]}, {"layers", record[3]}};
}

} // namespace

class TestPredictJob : public QObject
{
    Q_OBJECT

  private:
    gpumem::prediction::SavedModel mSaved;

  private Q_SLOTS:
    void initTestCase()
    {
        using namespace gpumem;
        const data::Table table = data::loadTable(kJobs);
        data::RoleRequest request;
        request.target = "memory_mib";
        request.features = {"batch", "optimizer"};
        request.sequenceColumn = "layers";
        std::vector<std::string> warnings;
        const data::Dataset dataset =
            data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
        std::shared_ptr<models::Regressor> ridge =
            models::createRegressor("ridge", models::regressorHyperparameters("ridge"));
        std::vector<Eigen::Index> rows(dataset.rowCount());
        for (std::size_t row = 0; row < rows.size(); ++row)
            rows[row] = static_cast<Eigen::Index>(row);
        calibration::CalibrationSettings settings;
        settings.score = calibration::Score::Absolute;
        settings.coverage = 0.9;
        settings.fraction = 0.5;
        const auto fit = calibration::fitCalibrated(*ridge, dataset, rows, settings);
        QVERIFY(fit.calibration);
        mSaved = {ridge, fit.calibration};
    }

    void equalsTheSameRowOfAFile()
    {
        const auto predicted =
            gpumem::prediction::predictFile(mSaved, {kJobs, 0, gpumem::data::BadCellPolicy::Fail, 0.8, {}});
        const auto lines = records(kJobs);
        QCOMPARE(lines.size(), std::size_t{81});
        QCOMPARE(static_cast<std::size_t>(predicted.predictions.predicted.size()), std::size_t{80});
        for (std::size_t row = 0; row < 80; ++row) {
            const auto job = gpumem::prediction::predictJob(mSaved, valuesOf(lines[row + 1]), 0.8);
            QCOMPARE(job.predicted.size(), Eigen::Index{1});
            const auto index = static_cast<Eigen::Index>(row);
            QCOMPARE(job.predicted[0], predicted.predictions.predicted[index]);
            QCOMPARE(job.upperBounds[0], predicted.predictions.upperBounds[index]);
            QCOMPARE(job.coverage, 0.8);
            // The absolute score's request is the prediction plus one margin for every job.
            QCOMPARE(job.upperBounds[0], job.predicted[0] + mSaved.calibration->margin(0.8));
            QCOMPARE(gpumem::prediction::describeExtrapolation(job, 0),
                     gpumem::prediction::describeExtrapolation(predicted.predictions, row));
        }
    }

    void aJobBeyondTheTrainingDataSaysSo()
    {
        auto values = valuesOf(records(kJobs)[1]);
        values["batch"] = 4096.0; // the file's largest batch is 256
        values["unused"] = 1.0;   // a value the model does not read changes nothing
        const auto job = gpumem::prediction::predictJob(mSaved, values);
        QVERIFY(gpumem::prediction::extrapolates(job, 0));
        QVERIFY2(contains(gpumem::prediction::describeExtrapolation(job, 0), "batch 4096 > 256"),
                 gpumem::prediction::describeExtrapolation(job, 0).c_str());
        // Without a coverage the bound is at the stored level.
        QCOMPARE(job.coverage, 0.9);
        QCOMPARE(job.upperBounds[0], job.predicted[0] + mSaved.calibration->margin(0.9));
    }

    void refusesValuesItCannotRead_data()
    {
        QTest::addColumn<QString>("column");
        QTest::addColumn<bool>("asText");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("lacking") << "optimizer" << false << ""
                                 << "no value for column 'optimizer'";
        QTest::newRow("text for a number") << "batch" << true << "64"
                                           << "column 'batch' takes a number";
        QTest::newRow("number for text") << "optimizer" << false << ""
                                         << "column 'optimizer' takes text";
        QTest::newRow("missing category") << "optimizer" << true << "NA"
                                          << "missing value in column 'optimizer'";
        QTest::newRow("malformed layers") << "layers" << true << "[('linear', 10"
                                          << "malformed layer sequence in column 'layers'";
    }
    void refusesValuesItCannotRead()
    {
        QFETCH(QString, column);
        QFETCH(bool, asText);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto values = valuesOf(records(kJobs)[1]);
        if (QTest::currentDataTag() == QLatin1String("lacking"))
            values.erase(column.toStdString());
        else if (asText)
            values[column.toStdString()] = text.toStdString();
        else
            values[column.toStdString()] = 1.0;
        const std::string error = gpumem::tests::raisedMessage([&] { gpumem::prediction::predictJob(mSaved, values); });
        QVERIFY2(contains(error, expected.toStdString()), error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestPredictJob)
#include "test_PredictJob.moc"
