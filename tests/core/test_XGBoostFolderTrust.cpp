// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 24: a trained XGBoost model folder whose booster.json was edited and its
// digest recomputed. XGBoost reads the trees' indices unchecked: these edits
// crashed it inside the library, looped for ever or allocated 22 GB. Each must
// end in exit 1 with one line naming booster.json, and no prediction file.
#include "CommandLineRun.h"
#include "ModelFolderEdits.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace {

using nlohmann::json;

const std::string jobs = GPUMEM_TEST_DATA_DIR "/jobs_training.csv";

// The first node with children of a tree, or -1 when the tree is a single leaf.
std::int64_t firstInnerNode(const json &tree)
{
    const json &left = tree["left_children"];
    for (std::size_t node = 0; node < left.size(); ++node)
        if (left[node].get<std::int64_t>() >= 0)
            return static_cast<std::int64_t>(node);
    return -1;
}

// The first tree with a split (the first rounds of a small fit can be single leaves),
// which the cases below damage.
json &firstTree(json &booster)
{
    for (json &tree : booster["learner"]["gradient_booster"]["model"]["trees"])
        if (firstInnerNode(tree) >= 0)
            return tree;
    qFatal("the trained booster has no tree with a split");
}

// The first node with children of a tree that has one (see firstTree).
std::size_t splitNode(const json &tree)
{
    return static_cast<std::size_t>(firstInnerNode(tree));
}

struct BoosterEdit
{
    const char *name;
    std::function<void(json &)> edit;
    const char *fragment; // of the one-line refusal
};

const std::vector<BoosterEdit> &boosterEdits()
{
    static const std::vector<BoosterEdit> edits = {
        {"child index past the nodes",
         [](json &b) {
             json &tree = firstTree(b);
             tree["left_children"][splitNode(tree)] = 100000;
         },
         "has child 100000"},
        {"negative child of an inner node",
         [](json &b) {
             json &tree = firstTree(b);
             tree["right_children"][splitNode(tree)] = -7;
         },
         "has child -7"},
        {"split feature out of range",
         [](json &b) {
             json &tree = firstTree(b);
             tree["split_indices"][splitNode(tree)] = 4000;
         },
         "splits on feature 4000"},
        {"parent entry edited",
         [](json &b) {
             json &tree = firstTree(b);
             const std::size_t child = tree["left_children"][splitNode(tree)].get<std::size_t>();
             tree["parents"][child] = child;
         },
         "names parent"},
        {"a child pointing back at the root",
         [](json &b) {
             json &tree = firstTree(b);
             tree["left_children"][splitNode(tree)] = 0;
         },
         ": tree "},
        {"num_trees disagrees with the trees",
         [](json &b) {
             json &model = b["learner"]["gradient_booster"]["model"];
             model["gbtree_model_param"]["num_trees"] = std::to_string(model["trees"].size() + 3);
         },
         "num_trees is"},
        {"tree_info one short", [](json &b) { b["learner"]["gradient_booster"]["model"]["tree_info"].erase(0); },
         "tree_info"},
        {"num_feature raised to 1e8", [](json &b) { b["learner"]["learner_model_param"]["num_feature"] = "100000000"; },
         "num_feature is 100000000"},
        {"gblinear with one weight",
         [](json &b) {
             b["learner"]["gradient_booster"] = {{"name", "gblinear"}, {"model", {{"weights", {0.5}}}}};
         },
         "must be gbtree"},
    };
    return edits;
}

} // namespace

class TestXGBoostFolderTrust : public QObject
{
    Q_OBJECT

  private:
    QTemporaryDir mScratch;
    QString mTrained;
    int mCase = 0;

  private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mScratch.isValid());
        mTrained = mScratch.filePath("xgboost");
        const Run train = runGpumem({"train", jobs, "--target", "memory_mib", "--model", "xgboost", "--set",
                                     "xgboost.n_estimators=5", "--out", mTrained.toStdString()});
        QVERIFY2(train.exitCode == 0, train.err.c_str());
        QVERIFY(QFile::exists(mTrained + "/booster.json"));
    }

    void theTrainedFolderPredicts()
    {
        const std::string out = mScratch.filePath("trusted.csv").toStdString();
        const Run run = runGpumem({"predict", mTrained.toStdString(), jobs, "--out", out});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
    }

    void refusesAnEditedBoosterWithItsDigest_data()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < boosterEdits().size(); ++i)
            QTest::newRow(boosterEdits()[i].name) << static_cast<int>(i);
    }

    void refusesAnEditedBoosterWithItsDigest()
    {
        QFETCH(int, index);
        const BoosterEdit &edit = boosterEdits()[static_cast<std::size_t>(index)];
        const QString folder = mScratch.filePath("case-" + QString::number(++mCase));
        gpumem::tests::copyFolder(mTrained, folder);
        json booster = json::parse(gpumem::tests::fileBytes(folder + "/booster.json").toStdString());
        edit.edit(booster);
        QVERIFY(gpumem::tests::writeFile(folder + "/booster.json", QByteArray::fromStdString(booster.dump())));
        gpumem::tests::rerecord(folder, "booster.json");

        const std::string out = mScratch.filePath("edited-" + QString::number(mCase) + ".csv").toStdString();
        const Run run = runGpumem({"predict", folder.toStdString(), jobs, "--out", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.size() > 1 && run.err.find('\n') == run.err.size() - 1, run.err.c_str());
        QVERIFY2(gpumem::tests::contains(run.err, "booster.json"), run.err.c_str());
        QVERIFY2(gpumem::tests::contains(run.err, edit.fragment), run.err.c_str());
        QVERIFY2(!QFile::exists(QString::fromStdString(out)), "a prediction file was written");
    }
};

QTEST_GUILESS_MAIN(TestXGBoostFolderTrust)
#include "test_XGBoostFolderTrust.moc"
