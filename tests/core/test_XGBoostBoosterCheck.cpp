// SPDX-License-Identifier: GPL-3.0-or-later
// The booster.json check on hand-made boosters: shapes that an edited file can
// take but XGBoost itself never writes (see test_ModelFolderTrust for edits of a trained one).
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "models/XGBoostBoosterCheck.h"

#include <QTest>

#include <string>

using gpumem::models::checkBoosterJson;

namespace {

// A one-tree booster over three features whose tree has the given node arrays.
std::string booster(const std::string &left, const std::string &right, const std::string &parents, int nodes)
{
    std::string zeros;
    for (int node = 0; node < nodes; ++node)
        zeros += node == 0 ? "0" : ",0";
    const std::string tree = R"({"base_weights":[)" + zeros + R"(],"categories":[],"default_left":[)" + zeros +
                             R"(],"id":0,"left_children":)" + left + R"(,"loss_changes":[)" + zeros +
                             R"(],"parents":)" + parents + R"(,"right_children":)" + right +
                             R"(,"split_conditions":[)" + zeros + R"(],"split_indices":[)" + zeros +
                             R"(],"split_type":[)" + zeros + R"(],"sum_hessian":[)" + zeros +
                             R"(],"tree_param":{"num_deleted":"0","num_feature":"3","num_nodes":")" +
                             std::to_string(nodes) + R"(","size_leaf_vector":"0"}})";
    return R"({"learner":{"attributes":{},"feature_names":[],"feature_types":[],)"
           R"("gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1",)"
           R"("size_leaf_vector":"0"},"tree_info":[0],"trees":[)" +
           tree +
           R"(]},"name":"gbtree"},"learner_model_param":{"base_score":"5E-1","boost_from_average":"1",)"
           R"("num_class":"0","num_feature":"3","num_target":"1"},"objective":{"name":"reg:squarederror"}},)"
           R"("version":[1,7,4]})";
}

std::string refusal(const std::string &text)
{
    return gpumem::tests::raisedInputError([&] { checkBoosterJson(text, 3, "booster.json"); }).what();
}

} // namespace

class TestXGBoostBoosterCheck : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void acceptsATree()
    {
        checkBoosterJson(booster("[1,-1,-1]", "[2,-1,-1]", "[2147483647,0,0]", 3), 3, "booster.json");
        checkBoosterJson(booster("[-1]", "[-1]", "[2147483647]", 1), 3, "booster.json");
    }

    // Issue 24: a cycle kept XGBoost walking for ever. Nodes 3 and 4 each have one
    // parent, as in a tree, but hang from node 3 itself instead of the root.
    void refusesACycleApartFromTheRoot()
    {
        const std::string message = refusal(booster("[1,-1,-1,4,-1]", "[2,-1,-1,3,-1]", "[2147483647,0,0,3,3]", 5));
        QVERIFY2(gpumem::tests::contains(message, "booster.json: tree 0: 2 nodes cannot be reached from the root"),
                 message.c_str());
    }

    void refusesCountsThatDisagree()
    {
        const std::string valid = booster("[1,-1,-1]", "[2,-1,-1]", "[2147483647,0,0]", 3);
        QVERIFY2(gpumem::tests::contains(
                     gpumem::tests::raisedInputError([&] { checkBoosterJson(valid, 47, "booster.json"); }).what(),
                     "num_feature is 3, but the model has 47 features"),
                 "feature count");
        std::string moreNodes = valid;
        moreNodes.replace(moreNodes.find("\"num_nodes\":\"3\""), 15, "\"num_nodes\":\"4\"");
        QVERIFY(gpumem::tests::contains(refusal(moreNodes), "must be an array of 4 items"));
    }

    void refusesWhatIsNotJsonOrRepeatsAKey()
    {
        QVERIFY(gpumem::tests::contains(refusal("{\"learner\":{},\"learner\":{}}"), "duplicate key"));
        QVERIFY(gpumem::tests::contains(refusal("[]"), "the booster must be an object"));
        QVERIFY(gpumem::tests::contains(refusal("{\"learner\":"), "booster.json:1:"));
    }
};

QTEST_GUILESS_MAIN(TestXGBoostBoosterCheck)
#include "test_XGBoostBoosterCheck.moc"
