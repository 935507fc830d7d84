// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandLineRun.h"
#include "DataTables.h"
#include "EstimateFixtures.h"

#include "estimate/GpuProfile.h"
#include "estimate/ProfileCalibration.h"
#include "io/InputError.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace gpumem;
using estimate::CalibrationPoint;
using estimate::MeasuredQuantity;

namespace {

constexpr MeasuredQuantity kDevice = MeasuredQuantity::DeviceTotal;
constexpr MeasuredQuantity kReserved = MeasuredQuantity::Reserved;

bool anyNoteContains(const std::vector<std::string> &notes, const char *part)
{
    return std::any_of(notes.begin(), notes.end(),
                       [&](const std::string &note) { return tests::contains(note, part); });
}

std::string number(double value)
{
    return QString::number(value, 'f', 4).toStdString();
}

} // namespace

class TestProfileCalibration : public QObject, private gpumem::tests::UsesEstimateFixtures
{
    Q_OBJECT

  private:
    // The replay's reserved peak of model at each batch, from `gpumem estimate --json`.
    std::vector<double> reservedMib(const char *model, const char *shape, const char *optimizer, const char *batches)
    {
        const auto run = runGpumem({"estimate", mFixtures.path(model), "--input-shape", shape, "--optimizer", optimizer,
                                    "--batch-size", batches, "--json"});
        if (run.exitCode != 0)
            return {};
        std::vector<double> values;
        const QJsonObject document = QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
        for (const auto &estimate : document.value("estimates").toArray())
            values.push_back(estimate.toObject().value("peak_reserved_mib").toDouble());
        return values;
    }

  private Q_SLOTS:

    void oneNvidiaSmiRowFitsTheContextAlone()
    {
        // 1500 measured = 1000 reserved + 8 workspace (kept) + 492 context.
        const auto fit = estimate::fitProfileConstants({{1000.0, 1500.0, kDevice}}, {400.0, 8.0});
        QVERIFY(fit.contextFitted);
        QVERIFY(!fit.workspaceFitted);
        QCOMPARE(fit.constants.contextMib, 492.0);
        QCOMPARE(fit.constants.workspaceMib, 8.0);
        QCOMPARE(fit.rmsResidualBeforeMib, 92.0);
        QCOMPARE(fit.rmsResidualAfterMib, 0.0);
        QVERIFY(anyNoteContains(fit.notes, "context and the workspace together"));
    }

    void severalNvidiaSmiRowsFitTheMeanContext()
    {
        // Context targets 1500 - 1000 - 8 = 492 and 2520 - 2000 - 8 = 512: their mean.
        const auto fit =
            estimate::fitProfileConstants({{1000.0, 1500.0, kDevice}, {2000.0, 2520.0, kDevice}}, {400.0, 8.0});
        QCOMPARE(fit.constants.contextMib, 502.0);
        QCOMPARE(fit.constants.workspaceMib, 8.0);
        QCOMPARE(fit.rmsResidualAfterMib, 10.0);
    }

    void mixedReadingsSeparateContextAndWorkspace()
    {
        // nvidia-smi rows see context + workspace: 520 and 530, mean 525; reserved rows
        // see the workspace: 30 and 10, mean 20. So workspace 20 and context 505.
        const std::vector<CalibrationPoint> points = {{1000.0, 1520.0, kDevice},
                                                      {2000.0, 2530.0, kDevice},
                                                      {1000.0, 1030.0, kReserved},
                                                      {3000.0, 3010.0, kReserved}};
        const auto fit = estimate::fitProfileConstants(points, {400.0, 8.0});
        QVERIFY(fit.contextFitted);
        QVERIFY(fit.workspaceFitted);
        QVERIFY(std::abs(fit.constants.contextMib - 505.0) < 1e-9);
        QVERIFY(std::abs(fit.constants.workspaceMib - 20.0) < 1e-9);
        // Residuals -5, 5, 10, -10 after; 112, 122, 22, 2 with the profile's 400 and 8.
        QVERIFY(std::abs(fit.rmsResidualAfterMib - std::sqrt(250.0 / 4.0)) < 1e-9);
        QVERIFY(std::abs(fit.rmsResidualBeforeMib -
                         std::sqrt((112.0 * 112.0 + 122.0 * 122.0 + 22.0 * 22.0 + 4.0) / 4.0)) < 1e-9);
        QVERIFY(fit.notes.empty());
        QCOMPARE(estimate::predictedMib(points[0], fit.constants), 1525.0);
        QCOMPARE(estimate::predictedMib(points[2], fit.constants), 1020.0);
    }

    void constantsStayNonNegative()
    {
        // Unconstrained: workspace (-5 - 15) / 2 = -10 and context 505 + 10. With the
        // workspace at 0 the context is the mean 505 (squared error 300), better than
        // any fit with the context at 0 (the workspace 247.5 misses by about 250 each).
        const auto fit = estimate::fitProfileConstants({{1000.0, 1500.0, kDevice},
                                                        {1000.0, 1510.0, kDevice},
                                                        {1000.0, 995.0, kReserved},
                                                        {1000.0, 985.0, kReserved}},
                                                       {400.0, 8.0});
        QCOMPARE(fit.constants.workspaceMib, 0.0);
        QCOMPARE(fit.constants.contextMib, 505.0);
        QCOMPARE(fit.rmsResidualAfterMib, std::sqrt(300.0 / 4.0));
        QVERIFY(anyNoteContains(fit.notes, "workspace_mib stopped at 0"));
        // A measurement below the replay alone: the context stops at 0 too.
        const auto below = estimate::fitProfileConstants({{1000.0, 900.0, kDevice}}, {400.0, 8.0});
        QCOMPARE(below.constants.contextMib, 0.0);
        QCOMPARE(below.constants.workspaceMib, 8.0);
    }

    void largeResidualsAreNoted()
    {
        // Context targets 492 and 1492: the mean 992 misses each by 500, a quarter of the mean measurement.
        const auto fit =
            estimate::fitProfileConstants({{1000.0, 1500.0, kDevice}, {1000.0, 2500.0, kDevice}}, {400.0, 8.0});
        QCOMPARE(fit.constants.contextMib, 992.0);
        QCOMPARE(fit.rmsResidualAfterMib, 500.0);
        QVERIFY(anyNoteContains(fit.notes, "the residuals stay large"));
    }

    void reservedReadingsCannotCalibrateTheContext()
    {
        const auto fit =
            estimate::fitProfileConstants({{1000.0, 1030.0, kReserved}, {2000.0, 2010.0, kReserved}}, {400.0, 8.0});
        QVERIFY(!fit.contextFitted);
        QVERIFY(fit.workspaceFitted);
        QCOMPARE(fit.constants.contextMib, 400.0);
        QCOMPARE(fit.constants.workspaceMib, 20.0);
        QVERIFY(anyNoteContains(fit.notes, "never the CUDA context"));
    }

    void calibratedProfileReadsBack()
    {
        estimate::GpuProfile base{"T4", 16384.0, 400.0, 8.0, "the data sheet"};
        estimate::ProfileFit fit;
        fit.constants = {612.34567, 24.25};
        fit.contextFitted = true;
        fit.workspaceFitted = true;
        const auto profile = estimate::calibratedProfile(base, fit, "/data/card/measured.csv", "2026-12-01", 3, 2);
        QCOMPARE(profile.name, std::string("T4 (calibrated)"));
        QCOMPARE(profile.capacityMib, 16384.0);
        QCOMPARE(profile.contextMib, 612.346);
        QCOMPARE(profile.workspaceMib, 24.25);
        QVERIFY2(
            tests::contains(profile.source, "from measured.csv on 2026-12-01 (3 nvidia-smi, 2 max_memory_reserved"),
            profile.source.c_str());
        QVERIFY(tests::contains(profile.source, "the data sheet"));
        const auto read = estimate::parseGpuProfile(estimate::gpuProfileJson(profile), "p.json");
        QCOMPARE(read.name, profile.name);
        QCOMPARE(read.contextMib, profile.contextMib);
        QCOMPARE(read.workspaceMib, profile.workspaceMib);
        QCOMPARE(read.source, profile.source);
        // Calibrating a calibrated profile keeps one suffix.
        QCOMPARE(estimate::calibratedProfile(profile, fit, "m.csv", "2026-12-02", 1, 0).name, profile.name);
    }

    void longSourceIsCutOnACharacterBoundary()
    {
        std::string accents;
        for (int i = 0; i < 600; ++i)
            accents += "\xC3\xA9"; // é, two bytes
        estimate::GpuProfile base{"T4", 16384.0, 400.0, 8.0, accents};
        estimate::ProfileFit fit;
        fit.constants = {500.0, 8.0};
        const auto profile = estimate::calibratedProfile(base, fit, "measured.csv", "2026-12-01", 1, 0);
        QVERIFY(profile.source.size() <= 1000);
        QCOMPARE(QString::fromUtf8(profile.source.c_str()).toUtf8().toStdString(), profile.source);
        estimate::parseGpuProfile(estimate::gpuProfileJson(profile), "p.json");
    }

    void constantsBeyondTheCapacityAreRefused()
    {
        estimate::GpuProfile base{"Tiny", 1000.0, 400.0, 8.0, "test"};
        estimate::ProfileFit fit;
        fit.constants = {990.0, 20.0};
        QVERIFY_THROWS_EXCEPTION(io::InputError,
                                 estimate::calibratedProfile(base, fit, "measured.csv", "2026-12-01", 1, 1));
    }

    void commandLineRecoversKnownConstants()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const std::vector<double> mlp = reservedMib("mlp.pt", "20", "adam", "8,64");
        const std::vector<double> cnn = reservedMib("cnn.pt", "3,16,16", "sgd", "4,16");
        QCOMPARE(mlp.size(), std::size_t{2});
        QCOMPARE(cnn.size(), std::size_t{2});
        const double context = 612.5;
        const double workspace = 24.25;
        QTemporaryDir folder;
        // One model relative to the CSV's folder, the other absolute.
        QVERIFY(QDir(folder.path()).mkdir("models"));
        QVERIFY(QFile::copy(QString::fromStdString(mFixtures.path("mlp.pt")), folder.filePath("models/mlp.pt")));
        const std::string cnnPath = mFixtures.path("cnn.pt");
        const std::string csv = "model,input_shape,batch_size,optimizer,measured_mib,measured_by\n"
                                "models/mlp.pt,20,8,adam," +
                                number(mlp[0] + workspace + context) +
                                ",nvidia-smi\n"
                                "models/mlp.pt,20,64,adam," +
                                number(mlp[1] + workspace + context) +
                                ",nvidia-smi\n"
                                "models/mlp.pt,20,64,adam," +
                                number(mlp[1] + workspace) + ",max_memory_reserved\n" + cnnPath +
                                ",\"3,16,16\",4,sgd," + number(cnn[0] + workspace) + ",max_memory_reserved\n" +
                                cnnPath + ",\"3,16,16\",16,sgd," + number(cnn[1] + workspace + context) +
                                ",nvidia-smi\n";
        QVERIFY(writeText(folder.filePath("measured.csv"), csv));
        const QString profilePath = folder.filePath("card.json");
        const auto run = runGpumem({"estimate", "--calibrate", folder.filePath("measured.csv").toStdString(), "--gpu",
                                    "t4", "--out", profilePath.toStdString()});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        // Two configurations (mlp with adam, cnn with sgd), whatever their batch sizes.
        QVERIFY2(tests::contains(run.out, "2 traced configurations"), run.out.c_str());
        QVERIFY2(tests::contains(run.out, "context_mib: 400.0 MiB in the profile, 612.5 MiB fitted"), run.out.c_str());
        const auto profile = estimate::readGpuProfile(profilePath.toStdString());
        QVERIFY2(std::abs(profile.contextMib - context) < 0.1, std::to_string(profile.contextMib).c_str());
        QVERIFY2(std::abs(profile.workspaceMib - workspace) < 0.1, std::to_string(profile.workspaceMib).c_str());
        QCOMPARE(profile.capacityMib, 16384.0);
        QCOMPARE(profile.name, std::string("T4 (calibrated)"));
        QVERIFY(tests::contains(profile.source, "measured.csv"));

        // The profile written is one --gpu takes: the device total is the replay plus the fitted constants.
        const auto estimated = runGpumem({"estimate", mFixtures.path("mlp.pt"), "--input-shape", "20", "--batch-size",
                                          "8", "--gpu", profilePath.toStdString(), "--json"});
        QCOMPARE(estimated.exitCode, 0);
        const QJsonObject first = QJsonDocument::fromJson(QByteArray::fromStdString(estimated.out))
                                      .object()
                                      .value("estimates")
                                      .toArray()
                                      .at(0)
                                      .toObject();
        QVERIFY(std::abs(first.value("device_total_mib").toDouble() - (mlp[0] + context + workspace)) < 0.1);

        // --json reports every job; the residuals vanish after the fit.
        const auto json = runGpumem(
            {"estimate", "--calibrate", folder.filePath("measured.csv").toStdString(), "--gpu", "t4", "--json"});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject document = QJsonDocument::fromJson(QByteArray::fromStdString(json.out)).object();
        QCOMPARE(document.value("jobs").toArray().size(), 5);
        QVERIFY(document.value("after").toObject().value("rms_residual_mib").toDouble() < 0.01);
        QVERIFY(document.value("before").toObject().value("rms_residual_mib").toDouble() > 100.0);
        QVERIFY(document.value("written").isNull());
    }

    void commandLineOneRowFitsTheContext()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const std::vector<double> mlp = reservedMib("mlp.pt", "20", "sgd", "32");
        QCOMPARE(mlp.size(), std::size_t{1});
        const double workspace = estimate::findGpuProfile("t4").workspaceMib;
        QTemporaryDir folder;
        QVERIFY(writeText(folder.filePath("one.csv"),
                          "measured_by,measured_mib,optimizer,batch_size,input_shape,model\n"
                          "nvidia-smi," +
                              number(mlp[0] + workspace + 300.0) + ",sgd,32,20," + mFixtures.path("mlp.pt") + "\n"));
        const QString profilePath = folder.filePath("one.json");
        const auto run = runGpumem({"estimate", "--calibrate", folder.filePath("one.csv").toStdString(), "--gpu", "t4",
                                    "--out", profilePath.toStdString()});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QVERIFY(tests::contains(run.out, "context and the workspace together"));
        const auto profile = estimate::readGpuProfile(profilePath.toStdString());
        QVERIFY(std::abs(profile.contextMib - 300.0) < 0.1);
        QCOMPARE(profile.workspaceMib, workspace); // T4's, kept
    }

    void optionalColumnsTrainALanguageModel()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        QTemporaryDir folder;
        // Semicolons, a byte-order mark, CRLF and cells with blanks around them, in a file of tokens.
        QVERIFY(writeText(
            folder.filePath("tokens.csv"),
            "\xEF\xBB\xBFmodel;input_shape;batch_size;optimizer;measured_mib;measured_by;input_kind;vocabulary;"
            "dtype\r\n" +
                mFixtures.path("tokens.pt") + "; 12 ;64;adamw;700;nvidia-smi;tokens;50;\r\n"));
        const auto run = runGpumem(
            {"estimate", "--calibrate", folder.filePath("tokens.csv").toStdString(), "--gpu", "a100-80", "--json"});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const QJsonObject document = QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
        const QJsonObject job = document.value("jobs").toArray().at(0).toObject();
        QCOMPARE(job.value("optimizer").toString(), QString("adamw"));
        // One row: the context takes what the replay and A100-80's workspaces leave.
        const double workspace = estimate::findGpuProfile("a100-80").workspaceMib;
        QVERIFY(std::abs(document.value("after").toObject().value("context_mib").toDouble() -
                         (700.0 - workspace - job.value("simulated_reserved_mib").toDouble())) < 0.01);
    }

    // Issue 24: `--calibrate … --gpu my.json --out my.json` rewrote its input profile.
    void calibrationNeverReplacesItsInputProfile()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        QTemporaryDir folder;
        const std::string csv = "model,input_shape,batch_size,optimizer,measured_mib,measured_by\n" +
                                mFixtures.path("mlp.pt") + ",20,8,adam,1500,nvidia-smi\n";
        QVERIFY(writeText(folder.filePath("measured.csv"), csv));
        const std::string profile = R"({"name": "card", "capacity_mib": 16384, "context_mib": 300, )"
                                    R"("workspace_mib": 8, "source": "test"})";
        const QString profilePath = folder.filePath("my.json");
        QVERIFY(writeText(profilePath, profile));
        const auto run = runGpumem({"estimate", "--calibrate", folder.filePath("measured.csv").toStdString(), "--gpu",
                                    profilePath.toStdString(), "--out", profilePath.toStdString()});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(tests::contains(run.err, "--out would overwrite the input --gpu"), run.err.c_str());
        QCOMPARE(readText(profilePath), profile);
    }

    void badMeasurementFilesAreOneLine_data()
    {
        addColumns<QString, QString>("csv", "expected");
        const QString header = "model,input_shape,batch_size,optimizer,measured_mib,measured_by\n";
        addRow("missing column", "model,input_shape,batch_size,optimizer,measured_mib\nm.pt,20,8,adam,900\n",
               "measured.csv:1: missing column 'measured_by'");
        addRow("unknown column", "model,input_shape,batch_size,optimizer,measured_mib,measured_by,gpu\n",
               "measured.csv:1:7: unknown column 'gpu'");
        addRow("tokens without vocabulary",
               "model,input_shape,batch_size,optimizer,measured_mib,measured_by,input_kind\n"
               "m.pt,12,8,adam,900,nvidia-smi,tokens\n",
               "measured.csv:2:7: input_kind: input_kind tokens needs the vocabulary");
        addRow("repeated column", "model,input_shape,batch_size,optimizer,measured_mib,measured_by,model\n",
               "measured.csv:1:7: column 'model' appears twice");
        // The header and one job's row, refused with "measured.csv:LINE:COLUMN: message".
        const auto jobRow = [&header](const char *name, const char *row, const char *at, const char *message) {
            addRow(name, header + row + "\n",
                   "measured.csv:" + QString::fromLatin1(at) + ": " + QString::fromLatin1(message));
        };
        jobRow("bad number", "m.pt,20,8,adam,12x,nvidia-smi", "2:5", "measured_mib: expected a number");
        jobRow("negative number", "m.pt,20,8,adam,-3,nvidia-smi", "2:5", "measured_mib");
        jobRow("bad batch", "m.pt,20,0,adam,900,nvidia-smi", "2:3", "batch_size: expected a whole number");
        jobRow("bad shape", "m.pt,\"3,x\",8,adam,900,nvidia-smi", "2:2", "input_shape");
        jobRow("bad optimizer", "m.pt,20,8,lion,900,nvidia-smi", "2:4", "optimizer: expected sgd");
        jobRow("bad measured_by", "m.pt,20,8,adam,900,dcgmi", "2:6", "measured_by");
        jobRow("missing model file", "nope.pt,20,8,adam,900,nvidia-smi", "2:1", "model: no model file");
        jobRow("short row", "m.pt,20,8", "2:4", "the row has 3 fields");
        jobRow("not TorchScript", "m.pt,20,8,adam,900,nvidia-smi", "2:1", "");
        jobRow("beyond the card", "m.pt,20,8,adam,20000,nvidia-smi", "2:5",
               "measured_mib: 20000.0 MiB is more than T4");
        addRow("no rows", header, "measured.csv: the file has a header but no measured jobs");
    }
    void badMeasurementFilesAreOneLine()
    {
        const auto [csv, expected] = fetchColumns<QString, QString>("csv", "expected");
        QTemporaryDir folder;
        QVERIFY(writeText(folder.filePath("m.pt"), "not a model\n"));
        QVERIFY(writeText(folder.filePath("measured.csv"), csv.toStdString()));
        const QString profilePath = folder.filePath("card.json");
        QVERIFY(writeText(profilePath, "the old profile\n"));
        const auto run = runGpumem({"estimate", "--calibrate", folder.filePath("measured.csv").toStdString(), "--gpu",
                                    "t4", "--out", profilePath.toStdString()});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(tests::contains(run.err, expected.toUtf8().constData()), run.err.c_str());
        // Nothing half-written: the old file stays as it was.
        QCOMPARE(readText(profilePath), std::string("the old profile\n"));
    }

    void calibrateRefusesTheEstimateOptions()
    {
        const auto withShape = runGpumem({"estimate", "--calibrate", "m.csv", "--input-shape", "3"});
        QCOMPARE(withShape.exitCode, 1);
        QCOMPARE(lineCount(withShape.err), 1);
        QVERIFY(tests::contains(withShape.err, "--input-shape does not go with --calibrate"));
        const auto outAlone = runGpumem({"estimate", "m.pt", "--input-shape", "3", "--out", "p.json"});
        QCOMPARE(outAlone.exitCode, 1);
        QCOMPARE(lineCount(outAlone.err), 1);
        const auto help = runGpumem({"estimate", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(tests::contains(help.out, "max_memory_reserved"));
        QVERIFY(tests::contains(help.out, "--calibrate"));
    }
};

QTEST_GUILESS_MAIN(TestProfileCalibration)
#include "test_ProfileCalibration.moc"
