// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandLineRun.h"
#include "DataTables.h"

#include "io/AtomicFileWriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

namespace {

QJsonObject parseJson(const std::string &text)
{
    QJsonParseError error;
    const auto document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "invalid JSON:" << error.errorString();
    return document.object();
}

} // namespace

class TestCommandLine : public QObject
{
    Q_OBJECT

  private:
    // Writes text as jobs.csv in folder and returns its path, or "" when it cannot.
    static std::string writtenJobs(const QTemporaryDir &folder, const char *text)
    {
        const QString csv = folder.filePath("jobs.csv");
        return folder.isValid() && gpumem::tests::writeText(csv, text) ? csv.toStdString() : std::string();
    }

    // The report of `gpumem inspect arguments… --json`; an empty object, with the error
    // printed, when the command fails.
    static QJsonObject inspectJson(std::vector<std::string> arguments)
    {
        arguments.insert(arguments.begin(), "inspect");
        arguments.push_back("--json");
        const Run run = runGpumem(arguments);
        if (run.exitCode != 0)
            qWarning() << run.err.c_str();
        return run.exitCode == 0 ? parseJson(run.out) : QJsonObject();
    }

  private Q_SLOTS:
    void inspectsAGoodFileAsText()
    {
        const Run run = runGpumem({"inspect", dataFile("jobs.csv")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.empty(), run.err.c_str());
        QVERIFY2(run.out.find("4 rows, 5 columns, comma-separated") != std::string::npos, run.out.c_str());
        QVERIFY2(run.out.find("Target candidates: memory_mib, batch") != std::string::npos, run.out.c_str());
    }

    void inspectsAGoodFileAsJson()
    {
        const Run run = runGpumem({"inspect", dataFile("jobs.csv"), "--json", "--target", "memory_mib"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(report.value("rows").toInt(), 4);
        const QJsonArray columns = report.value("columns").toArray();
        QCOMPARE(columns.size(), 5);
        const QStringList types{"identifier", "numeric", "categorical", "sequence", "numeric"};
        const QStringList roles{"ignored", "feature", "feature", "sequence", "target"};
        for (int i = 0; i < columns.size(); ++i) {
            QCOMPARE(columns[i].toObject().value("type").toString(), types[i]);
            QCOMPARE(columns[i].toObject().value("role").toString(), roles[i]);
        }
        QCOMPARE(columns[1].toObject().value("min").toDouble(), 32.0);
        QCOMPARE(columns[1].toObject().value("max").toDouble(), 128.0);
        QCOMPARE(columns[3].toObject().value("layer_types").toArray().size(), 3);
        QCOMPARE(report.value("target_candidates").toArray().first().toString(), QStringLiteral("memory_mib"));
    }

    void badInputExitsOneWithOneLine_data()
    {
        addColumns<QString, QStringList, QString, QString>("file", "options", "location", "messagePart");
        const QStringList none;
        const QStringList target{"--target", "memory"};
        addRow("empty file", "empty.csv", none, "empty.csv:", "empty");
        addRow("header only", "header_only.csv", none, "header_only.csv:", "no data rows");
        addRow("ragged row", "ragged.csv", none, "ragged.csv:3:3:", "row has 2 fields");
        addRow("unterminated quote", "unterminated_quote.csv", none, "unterminated_quote.csv:2:2:", "unterminated");
        addRow("duplicate names", "duplicate_names.csv", none, "duplicate_names.csv:1:3:", "duplicate");
        addRow("binary garbage", "binary_garbage.csv", none, "binary_garbage.csv:3:1:", "binary");
        addRow("NaN cell", "nan_cell.csv", target, "nan_cell.csv:3:2:", "missing value");
        addRow("inf cell", "inf_cell.csv", target, "inf_cell.csv:3:1:", "'inf' is not a finite number");
        addRow("1e400 cell", "huge_number.csv", target, "huge_number.csv:4:2:", "'1e400' is not a finite");
        addRow("non-numeric target", "non_numeric_target.csv", target,
               "non_numeric_target.csv:3:2:", "must be numeric");
        addRow("malformed sequence", "malformed_sequence.csv", target,
               "malformed_sequence.csv:3:2:", "malformed layer sequence");
        addRow("missing file", "absent.csv", none, "absent.csv:", "cannot open");
        addRow("unknown target", "nan_cell.csv", QStringList{"--target", "mem"},
               "nan_cell.csv:", "--target names no column 'mem'");
    }

    void badInputExitsOneWithOneLine()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, options);
        QFETCH(QString, location);
        QFETCH(QString, messagePart);
        std::vector<std::string> arguments{"inspect", dataFile(file.toUtf8().constData())};
        for (const QString &option : options)
            arguments.push_back(option.toStdString());
        const Run run = runGpumem(arguments);
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.empty());
        const QString err = QString::fromStdString(run.err);
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.startsWith("gpumem inspect: " + QString::fromStdString(dataFile("")) + location), qPrintable(err));
        QVERIFY2(err.contains(messagePart), qPrintable(err));
    }

    void dropPolicyWarnsAndContinues()
    {
        const Run run = runGpumem({"inspect", dataFile("nan_cell.csv"), "--on-bad-cell", "drop"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.find("warning: left out 1 of 3 rows") == 0, run.err.c_str());
        QVERIFY2(run.out.find("Rows usable: 2 of 3") != std::string::npos, run.out.c_str());
    }

    void everyCommandHasHelp_data()
    {
        addColumns<QStringList, QString>("arguments", "expected");
        addRow("gpumem --help", QStringList{"--help"}, "Usage: gpumem COMMAND");
        addRow("inspect --help", QStringList{"inspect", "--help"}, "Usage: gpumem inspect DATA.csv");
        addRow("compare --help", QStringList{"compare", "--help"}, "--set MODEL.NAME=VALUE");
        addRow("inspect -h after arguments", QStringList{"inspect", "x.csv", "-h"}, "--sequence-column");
        addRow("probe --help", QStringList{"probe", "--help"}, "--resume");
    }

    void everyCommandHasHelp()
    {
        const auto [run, expected] = runGpumemRowExpecting("expected");
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(QString::fromStdString(run.out).contains(expected), run.out.c_str());
    }

    void misuseExitsOne_data()
    {
        addColumns<QStringList, QString>("arguments", "expected");
        addRow("no command", QStringList{}, "Usage: gpumem COMMAND");
        addRow("unknown command", QStringList{"trian"}, "gpumem: unknown command 'trian'");
        addRow("unknown option", QStringList{"inspect", "a.csv", "--jsn"}, "unknown option '--jsn'");
        addRow("missing file argument", QStringList{"inspect"}, "missing argument DATA.csv");
        addRow("missing option value", QStringList{"inspect", "a.csv", "--target"}, "needs a value");
        addRow("compare: unknown report format", QStringList{"compare", "a.csv", "--target", "m", "--report", "r.pdf"},
               "name the file .json, .md");
        addRow("compare: unknown model", QStringList{"compare", "a.csv", "--target", "m", "--models", "svm"},
               "unknown model 'svm' (known:");
        addRow("compare: folds and hold-out",
               QStringList{"compare", "a.csv", "--target", "m", "--folds", "3", "--test-fraction", "0.2"},
               "--folds or --test-fraction, not both");
        addRow("compare: --set for a model not compared",
               QStringList{"compare", "a.csv", "--target", "m", "--models", "bigru_transformer", "--set",
                           "random_forest.n_estimators=5"},
               "names a model that is not compared");
        addRow("compare: repeats with a hold-out",
               QStringList{"compare", "a.csv", "--target", "m", "--repeats", "2", "--test-fraction", "0.2"},
               "--repeats and --group-by need cross-validation");
        addRow("compare: zero repeats", QStringList{"compare", "a.csv", "--target", "m", "--repeats", "0"},
               "--repeats");
        addRow("bad policy", QStringList{"inspect", "a.csv", "--on-bad-cell", "skip"}, "'fail' or 'drop'");
        addRow("probe without family", QStringList{"probe", "--count", "2", "--out", "x.csv"},
               "gpumem probe: missing --family");
        addRow("probe unknown family", QStringList{"probe", "--family", "rnn", "--count", "2", "--out", "x.csv"},
               "unknown job family 'rnn'");
        addRow("probe zero count", QStringList{"probe", "--family", "mlp", "--count", "0", "--out", "x.csv"},
               "--count takes a positive whole number");
        addRow("probe unknown device",
               QStringList{"probe", "--family", "mlp", "--count", "1", "--device", "tpu", "--out", "x.csv"},
               "--device takes cpu or cuda");
    }

    void misuseExitsOne()
    {
        const auto [run, expected] = runGpumemRowExpecting("expected");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(QString::fromStdString(run.err).contains(expected), run.err.c_str());
    }

    void probesAndWritesADataset()
    {
        QTemporaryDir folder;
        const std::string path = folder.filePath("jobs.csv").toStdString();
        const Run run = runGpumem({"probe", "--family", "mlp", "--count", "3", "--steps", "1", "--out", path});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(QString::fromStdString(run.out).contains("measured 3 jobs"), run.out.c_str());
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QCOMPARE(content.count('\n'), 4);
        QVERIFY(content.startsWith("family,batch_size,optimizer,dtype,steps,input_features,"));
    }

    void trainsSavesAndPredicts()
    {
        QTemporaryDir folder;
        const std::string data = folder.filePath(QStringLiteral("jobs.csv")).toStdString();
        std::string csv = "batch,optimizer,layers,memory\n";
        for (int row = 0; row < 48; ++row)
            csv += std::to_string(8 * (row % 6 + 1)) + (row % 3 ? ",adam," : ",sgd,") + "\"[('linear', " +
                   std::to_string(10 + row) + ", 100), ('ReLU', 10, 0)]\"," + std::to_string(1000 + 7 * row) + "\n";
        gpumem::io::writeFileAtomically(data, csv);
        const std::string model = folder.filePath(QStringLiteral("model")).toStdString();

        const Run train = runGpumem({"train", data, "--target", "memory", "--preset", "fast", "--set", "epochs=2",
                                     "--test-fraction", "0.25", "--out", model, "--json"});
        QCOMPARE(train.exitCode, 0);
        const QStringList lines = QString::fromStdString(train.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QJsonObject summary = parseJson(lines.last().toStdString());
        QCOMPARE(summary.value("event").toString(), QStringLiteral("finished"));
        QCOMPARE(summary.value("epochs_run").toInt(), 2);
        QCOMPARE(summary.value("test_rows").toInt(), 12);
        QVERIFY(summary.value("test_metrics").toObject().value("rmse").toDouble() > 0.0);
        QVERIFY(lines.first().contains(QStringLiteral("\"event\":\"batch\"")));
        QVERIFY(QFile::exists(QString::fromStdString(model + "/model.json")));
        QVERIFY(QFile::exists(QString::fromStdString(model + "/weights.safetensors")));

        const std::string predictions = folder.filePath(QStringLiteral("predictions.csv")).toStdString();
        const Run predict = runGpumem({"predict", model, data, "--out", predictions});
        QCOMPARE(predict.exitCode, 0);
        QFile file(QString::fromStdString(predictions));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = file.readAll().split('\n');
        QCOMPARE(rows.first(), QByteArray("prediction,actual,error,extrapolated"));
        QCOMPARE(rows.size(), 1 + 48 + 1); // header, one row per input row, final newline
        QCOMPARE(rows[1].split(',')[1], QByteArray("1000"));

        gpumem::io::writeFileAtomically(data, "batch,layers\n8,\"[('linear', 10, 100)]\"\n");
        const Run refused = runGpumem({"predict", model, data});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.find("missing column 'optimizer', which the model was trained with") != std::string::npos,
                 refused.err.c_str());
    }

    void comparesAndWritesEveryReport()
    {
        QTemporaryDir folder;
        const std::string data = folder.filePath(QStringLiteral("jobs.csv")).toStdString();
        std::string csv = "batch,optimizer,memory\n";
        for (int row = 0; row < 30; ++row)
            csv += std::to_string(8 * (row % 6 + 1)) + (row % 3 ? ",adam," : ",sgd,") +
                   std::to_string(1000 + 9 * (row % 6) + (row % 3 ? 40 : 0)) + "\n";
        gpumem::io::writeFileAtomically(data, csv);
        std::vector<std::string> arguments = {"compare", data, "--target", "memory"};
        for (const char *argument : {"--models", "bigru_transformer,ridge,decision_tree", "--preset", "fast", "--set",
                                     "epochs=1", "--set", "decision_tree.max_depth=2", "--folds", "3", "--jobs", "2"})
            arguments.emplace_back(argument);
        arguments.push_back("--predictions");
        arguments.push_back(folder.filePath(QStringLiteral("oof.csv")).toStdString());
        for (const char *name : {"r.json", "r.md", "r.csv", "r.html"}) {
            arguments.push_back("--report");
            arguments.push_back(folder.filePath(QString::fromLatin1(name)).toStdString());
        }
        const Run run = runGpumem(arguments);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.find("3-fold cross-validation (seed 42) of 30 rows") != std::string::npos, run.out.c_str());
        QFile json(folder.filePath(QStringLiteral("r.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject report = parseJson(json.readAll().toStdString());
        QCOMPARE(report.value("folds").toInt(), 3);
        const QJsonArray models = report.value("models").toArray();
        QCOMPARE(models.size(), 3);
        QCOMPARE(models.first().toObject().value("per_fold").toArray().size(), 3);
        // The data is linear in batch and optimizer, so ridge fits it best; the
        // qualified --set reached the tree.
        QCOMPARE(report.value("best").toString(), QStringLiteral("ridge"));
        QCOMPARE(models[2].toObject().value("hyperparameters").toObject().value("max_depth").toInt(), 2);
        // Both other models are tested against ridge with both tests.
        QCOMPARE(report.value("significance").toArray().size(), 4);
        for (const char *name : {"r.md", "r.csv", "r.html"}) {
            QFile file(folder.filePath(QString::fromLatin1(name)));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray text = file.readAll();
            for (const char *model : {"bigru_transformer", "ridge", "decision_tree"})
                QVERIFY2(text.contains(model) || QByteArray(name) != "r.csv", name);
            QVERIFY2(text.contains("Ridge regression") || QByteArray(name) == "r.csv", name);
        }
        QFile predictions(folder.filePath(QStringLiteral("oof.csv")));
        QVERIFY(predictions.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = predictions.readAll().split('\n');
        QCOMPARE(rows.first(),
                 QByteArray("fold,actual,prediction_bigru_transformer,prediction_ridge,prediction_decision_tree"));
        QCOMPARE(rows.size(), 1 + 30 + 1);
    }

    void comparesOverRepeatedAndGroupedFolds()
    {
        QTemporaryDir folder;
        const std::string data = folder.filePath(QStringLiteral("jobs.csv")).toStdString();
        // Six architectures of five jobs each; memory is linear in the batch with a per-architecture offset.
        std::string csv = "arch,batch,memory\n";
        for (int row = 0; row < 30; ++row)
            csv += "net" + std::to_string(row % 6) + ',' + std::to_string(8 * (row / 6 + 1)) + ',' +
                   std::to_string(500 + 100 * (row % 6) + 8 * (row / 6 + 1)) + "\n";
        gpumem::io::writeFileAtomically(data, csv);
        const std::string report = folder.filePath(QStringLiteral("r.json")).toStdString();
        const std::string predictions = folder.filePath(QStringLiteral("oof.csv")).toStdString();
        const Run run =
            runGpumem({"compare", data, "--target", "memory", "--models", "ridge,decision_tree", "--folds", "3",
                       "--repeats", "2", "--group-by", "arch", "--report", report, "--predictions", predictions});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.find("2 × 3-fold cross-validation, folds grouped by arch (seed 42) of 30 rows") !=
                     std::string::npos,
                 run.out.c_str());
        QVERIFY2(run.out.find("corrected repeated k-fold t-test") != std::string::npos, run.out.c_str());
        QFile json(QString::fromStdString(report));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject parsed = parseJson(json.readAll().toStdString());
        QCOMPARE(parsed.value("folds").toInt(), 3);
        QCOMPARE(parsed.value("repeats").toInt(), 2);
        QCOMPARE(parsed.value("splits").toInt(), 6);
        QCOMPARE(parsed.value("group_by").toString(), QStringLiteral("arch"));
        const QJsonObject first = parsed.value("models").toArray().first().toObject();
        QCOMPARE(first.value("per_fold").toArray().size(), 6);
        QVERIFY(first.value("repetition_std").toObject().contains("rmse"));
        QVERIFY(first.value("metrics").toObject().contains("median_rel_error"));
        const QJsonArray significance = parsed.value("significance").toArray();
        QCOMPARE(significance.size(), 1);
        QCOMPARE(significance.first().toObject().value("test").toString(), QStringLiteral("corrected_t"));

        // Out of fold, the first repetition: every architecture's five jobs share one test fold.
        QFile oof(QString::fromStdString(predictions));
        QVERIFY(oof.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = oof.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 31);
        for (int row = 1; row <= 6; ++row)
            for (int sibling = row + 6; sibling <= 30; sibling += 6)
                QCOMPARE(rows[sibling].split(',').first(), rows[row].split(',').first());

        const Run missing =
            runGpumem({"compare", data, "--target", "memory", "--models", "ridge", "--group-by", "job"});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.find("no column 'job' to group the folds by") != std::string::npos, missing.err.c_str());
    }

    void describesTheModel()
    {
        const Run run = runGpumem({"describe-model", "--preset", "fast", "--set", "layer_tokens=true", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject description = parseJson(run.out);
        QCOMPARE(description.value("blocks").toArray().size(), 6);
        QVERIFY(description.value("total_parameters").toInt() > 1000);
        QCOMPARE(description.value("hyperparameters").toObject().value("epochs").toInt(), 12);
        const Run unknown = runGpumem({"describe-model", "--preset", "huge"});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.find("no preset named 'huge'; presets: default, fast, gpu") != std::string::npos,
                 unknown.err.c_str());
    }

    void versionNamesTheLibraries()
    {
        const Run run = runGpumem({"--version"});
        QCOMPARE(run.exitCode, 0);
        for (const char *library : {"LibTorch", "Eigen", "XGBoost", "CUDA"})
            QVERIFY2(run.out.find(library) != std::string::npos, run.out.c_str());
    }

    void inspectsTheGpuMemNetMeasurements()
    {
        const std::string path = GPUMEM_SHARED_DATASETS_DIR "/gpumemnet_mlp.csv";
        if (!QFile::exists(QString::fromStdString(path)))
            QSKIP("../shared/datasets is absent");
        const Run run = runGpumem({"inspect", path, "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(report.value("rows").toInt(), 3000);
        QHash<QString, QString> types;
        for (const auto &column : report.value("columns").toArray())
            types.insert(column.toObject().value("name").toString(), column.toObject().value("type").toString());
        QCOMPARE(types.value("Filename"), QStringLiteral("identifier"));
        QCOMPARE(types.value("Activations-Params"), QStringLiteral("sequence"));
        QCOMPARE(types.value("Activation Function"), QStringLiteral("categorical"));
        QCOMPARE(report.value("target_candidates").toArray().first().toString(),
                 QStringLiteral("Max GPU Memory (MiB)"));
    }

    // A column of one value teaches no model: the command line ignores it as the Data
    // page does, with the same note, unless --features names it.
    void ignoresConstantColumnsAsTheDataPageDoes()
    {
        QTemporaryDir folder;
        const std::string csv = writtenJobs(folder, "batch,steps,memory_mib\n8,2,636\n16,2,764\n32,2,1020\n");
        QVERIFY(!csv.empty());
        const QJsonObject report = inspectJson({csv, "--target", "memory_mib"});
        QCOMPARE(report.value("columns").toArray().at(1).toObject().value("role").toString(),
                 QStringLiteral("ignored"));
        QCOMPARE(report.value("warnings").toArray().first().toString(),
                 QStringLiteral("ignored 1 column that holds one value in every row (nothing to learn from): 'steps'"));
        const QJsonObject named = inspectJson({csv, "--target", "memory_mib", "--features", "batch,steps"});
        QCOMPARE(named.value("columns").toArray().at(1).toObject().value("role").toString(), QStringLiteral("feature"));
    }

    // The outcomes a file's column notes name, other than the target, never become
    // features on the command line, and the command says which it left out.
    void ignoresTheOtherOutcomesOfTheColumnNotes()
    {
        QTemporaryDir folder;
        const std::string csv =
            writtenJobs(folder, "batch,allocated_mib,device_mib\n8,100,636\n16,190,764\n32,380,1020\n");
        QVERIFY(!csv.empty());
        QVERIFY(gpumem::tests::writeText(folder.filePath("jobs.columns.json"),
                                         R"({"outcomes": ["allocated_mib", "device_mib"]})"));
        const QJsonObject report = inspectJson({csv, "--target", "device_mib"});
        QHash<QString, QString> roles;
        for (const auto &column : report.value("columns").toArray())
            roles.insert(column.toObject().value("name").toString(), column.toObject().value("role").toString());
        QCOMPARE(roles.value("allocated_mib"), QStringLiteral("ignored"));
        QCOMPARE(roles.value("batch"), QStringLiteral("feature"));
        QVERIFY2(
            report.value("warnings")
                .toArray()
                .first()
                .toString()
                .contains("ignored 1 other outcome of each job, which would give the target away (jobs.columns.json)"),
            qPrintable(QJsonDocument(report).toJson()));
        // Named in --features, an outcome is used on purpose.
        const Run chosen = runGpumem({"inspect", csv, "--target", "device_mib", "--features", "batch,allocated_mib"});
        QCOMPARE(chosen.exitCode, 0);
        QVERIFY2(chosen.err.find("other outcome") == std::string::npos, chosen.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "test_CommandLine.moc"
