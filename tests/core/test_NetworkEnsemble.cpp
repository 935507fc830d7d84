// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"
#include "DataTables.h"
#include "ModelFolderEdits.h"
#include "RaisedInputError.h"
#include "SmallNetwork.h"

#include "models/NetworkEnsemble.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkRegressor.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using gpumem::models::Hyperparameters;
using gpumem::models::NeuralNetworkRegressor;

namespace {

const gpumem::data::Dataset &jobs()
{
    static const gpumem::data::Dataset dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(48, 5.0));
    return dataset;
}

const std::vector<Eigen::Index> &allRows()
{
    static const std::vector<Eigen::Index> rows = gpumem::tests::firstRows(jobs().rowCount());
    return rows;
}

// A small single network.
Hyperparameters smallNetwork(int epochs)
{
    return gpumem::tests::smallNetworkHyperparameters(epochs);
}

Hyperparameters smallEnsemble(int members, int epochs = 3)
{
    Hyperparameters hyperparameters = smallNetwork(epochs);
    hyperparameters.set("ensemble", std::int64_t{members});
    return hyperparameters;
}

NeuralNetworkRegressor trained(const Hyperparameters &hyperparameters, std::uint64_t seed, int threads = 1,
                               gpumem::training::TrainingObserver *observer = nullptr,
                               gpumem::runtime::OperationControl *control = nullptr)
{
    NeuralNetworkRegressor model(hyperparameters, gpumem::tests::cpuSettings(seed, threads));
    model.fit(jobs(), allRows(), observer, control);
    return model;
}

struct EpochLosses : gpumem::training::TrainingObserver
{
    std::vector<gpumem::training::EpochProgress> epochs;
    std::vector<gpumem::training::BatchProgress> batches;
    // Each member's epochs, and every epoch event in order (the member, or -1 for the mean).
    std::vector<std::vector<gpumem::training::EpochProgress>> memberEpochs;
    std::vector<int> epochOrder;
    void batchFinished(const gpumem::training::BatchProgress &progress) override { batches.push_back(progress); }
    void epochFinished(const gpumem::training::EpochProgress &progress) override
    {
        epochs.push_back(progress);
        epochOrder.push_back(-1);
    }
    void memberEpochFinished(int member, const gpumem::training::EpochProgress &progress) override
    {
        memberEpochs.resize(std::max(memberEpochs.size(), static_cast<std::size_t>(member) + 1));
        memberEpochs[static_cast<std::size_t>(member)].push_back(progress);
        epochOrder.push_back(member);
    }
};

} // namespace

class TestNetworkEnsemble : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // An ensemble of one is the plain network: the same seed, the same threads, the same bits.
    void oneMemberIsThePlainNetwork()
    {
        QCOMPARE(gpumem::models::ensembleMemberSeed(42, 0), std::uint64_t{42});
        for (int threads : {1, 2}) {
            const NeuralNetworkRegressor single = trained(smallEnsemble(1), 42, threads);
            QVERIFY(single.predict(jobs()) == trained(smallNetwork(3), 42, threads).predict(jobs()));
            QVERIFY(single.memberSpread(jobs()).isZero(0.0));
        }
    }

    void predictsTheMeanOfItsMembersInTheLearnedSpace_data()
    {
        addColumns<int, bool>("threads", "logTarget");
        addRow("one thread, taking turns, log target", 1, true);
        addRow("two side by side, the third taking turns", 2, true);
        addRow("target in MiB", 1, false);
    }

    // The prediction is the mean of the members, each trained alone with its
    // derived seed, in log1p space with log_target (in MiB without), and the
    // spread is their sample standard deviation there. Members that train side
    // by side take one thread each, as a network trained alone on one thread does.
    void predictsTheMeanOfItsMembersInTheLearnedSpace()
    {
        const auto [threads, logTarget] = fetchColumns<int, bool>("threads", "logTarget");
        Hyperparameters hyperparameters = smallEnsemble(3);
        hyperparameters.set("log_target", logTarget);
        const NeuralNetworkRegressor ensemble = trained(hyperparameters, 42, threads);

        hyperparameters.set("ensemble", std::int64_t{1});
        std::vector<Eigen::VectorXd> members;
        for (int member = 0; member < 3; ++member) {
            const Eigen::VectorXd predicted =
                trained(hyperparameters, gpumem::models::ensembleMemberSeed(42, member)).predict(jobs());
            members.push_back(logTarget ? Eigen::VectorXd(predicted.array().log1p()) : predicted);
        }
        QVERIFY(members[0] != members[1] && members[1] != members[2]);
        const Eigen::VectorXd mean = (members[0] + members[1] + members[2]) / 3.0;
        Eigen::VectorXd spread(mean.size());
        for (Eigen::Index row = 0; row < mean.size(); ++row) {
            double squares = 0.0;
            for (const Eigen::VectorXd &member : members)
                squares += (member[row] - mean[row]) * (member[row] - mean[row]);
            spread[row] = std::sqrt(squares / 2.0);
        }
        const Eigen::VectorXd expected = logTarget ? Eigen::VectorXd(mean.array().exp() - 1.0) : mean;
        const Eigen::VectorXd predicted = ensemble.predict(jobs());
        const double worst = ((predicted - expected).array().abs() / expected.array().abs()).maxCoeff();
        QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
        const Eigen::VectorXd measured = ensemble.memberSpread(jobs());
        QVERIFY(spread.minCoeff() > 0.0);
        const double spreadError = ((measured - spread).array().abs() / spread.array()).maxCoeff();
        QVERIFY2(spreadError < 1e-6, qPrintable(QString::number(spreadError)));
    }

    // Progress covers every member: batches count them all, and the loss curve is
    // the mean of the members' curves, epoch by epoch.
    void reportsTheMeanCurveAndEveryMembersBatches()
    {
        EpochLosses ensembleProgress;
        trained(smallEnsemble(2), 42, 1, &ensembleProgress);
        std::vector<EpochLosses> alone(2);
        Hyperparameters single = smallEnsemble(1);
        for (int member = 0; member < 2; ++member)
            trained(single, gpumem::models::ensembleMemberSeed(42, member), 1,
                    &alone[static_cast<std::size_t>(member)]);

        QCOMPARE(ensembleProgress.batches.size(), 2 * alone[0].batches.size());
        QCOMPARE(gpumem::training::fitShare(ensembleProgress.batches.back()), 1.0);
        QCOMPARE(gpumem::training::fitShare(ensembleProgress.batches[alone[0].batches.size() - 1]), 0.5);
        // On one thread the members take turns: member 0's first epoch, then member 1's.
        // The batch loss and learning rate are the means of the members' latest.
        const std::size_t perEpoch = alone[0].batches.size() / 3;
        const auto &secondsFirst = ensembleProgress.batches[perEpoch];
        QCOMPARE(secondsFirst.learningRate,
                 (alone[0].batches[perEpoch - 1].learningRate + alone[1].batches[0].learningRate) / 2.0);
        QCOMPARE(secondsFirst.trainLoss,
                 (alone[0].batches[perEpoch - 1].trainLoss + alone[1].batches[0].trainLoss) / 2.0);
        QCOMPARE(ensembleProgress.epochs.size(), std::size_t{3});
        for (std::size_t epoch = 0; epoch < 3; ++epoch) {
            QCOMPARE(ensembleProgress.epochs[epoch].epoch, static_cast<int>(epoch + 1));
            QCOMPARE(ensembleProgress.epochs[epoch].trainLoss,
                     (alone[0].epochs[epoch].trainLoss + alone[1].epochs[epoch].trainLoss) / 2.0);
        }
        // Each member's own curve is reported too, the network's trained alone, and each
        // member's epoch before the mean it enters: on one thread, taking turns, member 0's
        // epoch, member 1's, then their mean.
        QCOMPARE(ensembleProgress.memberEpochs.size(), std::size_t{2});
        for (std::size_t member = 0; member < 2; ++member) {
            QCOMPARE(ensembleProgress.memberEpochs[member].size(), std::size_t{3});
            for (std::size_t epoch = 0; epoch < 3; ++epoch)
                QCOMPARE(ensembleProgress.memberEpochs[member][epoch].trainLoss, alone[member].epochs[epoch].trainLoss);
        }
        QCOMPARE(ensembleProgress.epochOrder, (std::vector<int>{0, 1, -1, 0, 1, -1, 0, 1, -1}));
        // A single network has no members to report.
        QVERIFY(alone[0].memberEpochs.empty());
    }

    // Three members on two threads take turns epoch by epoch: the mean curve's
    // first epoch comes once each member has trained one, not once the first two
    // have trained all of theirs and the third its first.
    void moreMembersThanThreadsTrainInStep()
    {
        struct FirstMeanEpoch : gpumem::training::TrainingObserver
        {
            std::size_t batches = 0;
            std::size_t batchesAtFirstEpoch = 0;
            void batchFinished(const gpumem::training::BatchProgress &) override { ++batches; }
            void epochFinished(const gpumem::training::EpochProgress &progress) override
            {
                if (progress.epoch == 1)
                    batchesAtFirstEpoch = batches;
            }
        } observer;
        const int epochs = 6;
        trained(smallEnsemble(3, epochs), 42, 2, &observer);
        // In step the members have done about 3 of the 18 epochs in all when the
        // slowest finishes its first (more only if a thread stalls); in groups, 13.
        QVERIFY2(
            observer.batchesAtFirstEpoch * 2 < observer.batches,
            qPrintable(QStringLiteral("%1 of %2 batches").arg(observer.batchesAtFirstEpoch).arg(observer.batches)));
        QVERIFY(observer.batchesAtFirstEpoch > 0);
    }

    void savedEnsemblePredictsTheSame()
    {
        const NeuralNetworkRegressor model = trained(smallEnsemble(3), 7, 2);
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("model"));
        model.save(path.toStdString());
        const QJsonObject metadata = gpumem::tests::readModelJson(path);
        QCOMPARE(metadata.value("fitted").toObject().value("members").toInt(), 3);
        for (const char *file : {"weights.safetensors", "weights-1.safetensors", "weights-2.safetensors",
                                 "optimizer.safetensors", "optimizer-1.safetensors", "optimizer-2.safetensors"})
            QVERIFY2(metadata.value("files").toObject().contains(QString::fromLatin1(file)), file);

        const NeuralNetworkRegressor loaded = NeuralNetworkRegressor::load(path.toStdString());
        QVERIFY(loaded.predict(jobs()) == model.predict(jobs()));
        QVERIFY(loaded.memberSpread(jobs()) == model.memberSpread(jobs()));
        QCOMPARE(loaded.epochsTrained(), 3);
    }

    void refusesAFolderWhoseMembersDisagree_data()
    {
        addColumns<QString, QString>("edit", "named");
        addRow("a member more than its files", "members=3", "weights-2.safetensors");
        addRow("a member file more than counted", "members=1", "optimizer-1.safetensors");
        addRow("more members than the ensemble", "ensemble=1", "\"members\" is 2");
        addRow("members past the limit", "members=1000", "\"members\"");
        addRow("a member's weights swapped", "swap", "weights-1.safetensors");
        addRow("a member's optimizer state lost", "drop", "optimizer-1.safetensors");
    }

    // Model folders are untrusted: a member count that disagrees with the files,
    // the hyperparameters or the limit, or a member file swapped or lost, is
    // refused with one line that names what disagrees.
    void refusesAFolderWhoseMembersDisagree()
    {
        QFETCH(QString, edit);
        QFETCH(QString, named);
        static const NeuralNetworkRegressor model = trained(smallEnsemble(2, 1), 3);
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("model"));
        model.save(path.toStdString());
        QJsonObject metadata = gpumem::tests::readModelJson(path);
        QJsonObject fitted = metadata.value("fitted").toObject();
        QJsonObject hyperparameters = metadata.value("hyperparameters").toObject();
        if (edit == "swap") {
            QFile::remove(path + "/weights-1.safetensors");
            QVERIFY(QFile::copy(path + "/weights.safetensors", path + "/weights-1.safetensors"));
        } else if (edit == "drop") {
            QFile::remove(path + "/optimizer-1.safetensors");
            QJsonObject files = metadata.value("files").toObject();
            files.remove("optimizer-1.safetensors");
            metadata.insert("files", files);
        } else if (edit.startsWith("members=")) {
            const int members = edit.mid(8).toInt();
            fitted.insert("members", members);
            hyperparameters.insert("ensemble", std::min(members, 16));
        } else {
            hyperparameters.insert("ensemble", 1);
        }
        metadata.insert("fitted", fitted);
        metadata.insert("hyperparameters", hyperparameters);
        gpumem::tests::writeModelJson(path, metadata);

        const auto error = gpumem::tests::raisedInputError([&] { NeuralNetworkRegressor::load(path.toStdString()); });
        const std::string text = error.what();
        QVERIFY2(text.find(named.toStdString()) != std::string::npos, error.what());
        QVERIFY2(text.find('\n') == std::string::npos, error.what());
    }

    void refusesAnInvalidEnsembleSize_data()
    {
        addColumns<QString>("assignment");
        addRow("none", "ensemble=0");
        addRow("past the limit", "ensemble=17");
        addRow("a fraction", "ensemble=2.5");
    }

    void refusesAnInvalidEnsembleSize()
    {
        QFETCH(QString, assignment);
        Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        const auto error =
            gpumem::tests::raisedInputError([&] { hyperparameters.setAssignment(assignment.toStdString()); });
        QVERIFY2(std::string(error.what()).find("ensemble") != std::string::npos, error.what());
    }

    // A continued ensemble continues every member: 2 + 2 epochs at a constant
    // rate repeat the 4 epochs of a training that never stopped.
    void continuesEveryMember()
    {
        Hyperparameters hyperparameters = smallEnsemble(2, 4);
        hyperparameters.setAssignment("schedule=constant");
        hyperparameters.setAssignment("warmup_fraction=0");
        const Eigen::VectorXd straight = trained(hyperparameters, 5).predict(jobs());

        hyperparameters.set("epochs", std::int64_t{2});
        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("model")).toStdString();
        trained(hyperparameters, 5).save(path);
        NeuralNetworkRegressor continued = NeuralNetworkRegressor::load(path, gpumem::tests::cpuSettings(5));
        QCOMPARE(continued.epochsTrained(), 2);
        continued.continueTrainingTo(4);
        EpochLosses progress;
        continued.fit(jobs(), allRows(), &progress);
        QCOMPARE(progress.epochs.size(), std::size_t{2});
        QCOMPARE(progress.epochs.front().epoch, 3);
        QVERIFY(continued.predict(jobs()) == straight);
    }

    // Cancelling stops every member: those not started never train, and the
    // model keeps the networks that did, which predict but cannot be continued.
    // On one thread the members take turns, epoch by epoch, in member order.
    void cancelStopsEveryMember()
    {
        struct CancelInSecondEpoch : EpochLosses
        {
            gpumem::runtime::OperationControl control;
            void batchFinished(const gpumem::training::BatchProgress &progress) override
            {
                EpochLosses::batchFinished(progress);
                // Member 0's first epoch is done, and member 1 has trained its first batch.
                if (batches.size() == static_cast<std::size_t>(progress.batches / 3) + 1)
                    control.cancel();
            }
        } observer;
        // A validation share, so that the cancelled member keeps its best epoch and the checkpoint of it.
        Hyperparameters hyperparameters = smallEnsemble(3, 5);
        hyperparameters.setAssignment("validation_fraction=0.25");
        NeuralNetworkRegressor model(hyperparameters, gpumem::tests::cpuSettings(42));
        const auto result = model.fit(jobs(), allRows(), &observer, &observer.control);
        QCOMPARE(result.stopReason, gpumem::training::StopReason::Cancelled);
        QCOMPARE(observer.batches.size(), static_cast<std::size_t>(observer.batches.front().batches / 3) + 1);
        QVERIFY(model.isFitted());
        // Members 0 and 1 trained; member 2 never started.
        QVERIFY(model.memberSpread(jobs()).minCoeff() > 0.0);
        const auto error = gpumem::tests::raisedInputError([&] { model.continueTrainingTo(6); });
        QVERIFY2(std::string(error.what()).find("holds 2 of its 3 networks") != std::string::npos, error.what());

        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("model")).toStdString();
        model.save(path);
        QVERIFY(NeuralNetworkRegressor::load(path).predict(jobs()) == model.predict(jobs()));
    }
};

QTEST_GUILESS_MAIN(TestNetworkEnsemble)
#include "test_NetworkEnsemble.moc"
