// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/XGBoostBoosterCheck.h"

#include "io/InputError.h"
#include "io/Json.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace gpumem::models {

namespace {

// The "parents" entry of a root: XGBoost writes its invalid node id with the is-left flag bit cleared.
constexpr std::int64_t kRootParent = 2147483647;
// Far above what max_depth 100 with the rows a CSV can hold grows, and small enough to keep the checks cheap.
constexpr std::int64_t kMostNodes = std::int64_t{1} << 24;

// Collects the path for every message.
class BoosterChecker
{
  public:
    BoosterChecker(std::int64_t featureCount, const std::string &path)
        : mFeatureCount(featureCount)
        , mPath(path)
    {
    }

    void check(const io::Json &document)
    {
        const io::Json &learner = member(document, "learner", "the booster");
        checkModelParameters(member(learner, "learner_model_param", "learner"));
        const io::Json &objective = member(learner, "objective", "learner");
        if (text(member(objective, "name", "objective"), "objective name") != "reg:squarederror")
            fail("the objective must be reg:squarederror, the one this program trains");
        for (const char *key : {"feature_names", "feature_types"}) {
            const io::Json *names = learner.is_object() ? io::findMember(learner, key) : nullptr;
            if (names != nullptr &&
                !(names->is_array() && (names->empty() || std::int64_t(names->size()) == mFeatureCount)))
                fail(std::string(key) + " must be an empty array or name each of the " + std::to_string(mFeatureCount) +
                     " features");
        }
        const io::Json &booster = member(learner, "gradient_booster", "learner");
        // gblinear and dart are never written here; refusing them keeps the check to one layout.
        if (text(member(booster, "name", "gradient_booster"), "gradient_booster name") != "gbtree")
            fail("the gradient booster must be gbtree, the one this program trains");
        checkTrees(member(booster, "model", "gradient_booster"));
    }

  private:
    [[noreturn]] void fail(const std::string &message) const { throw io::InputError(mPath, 0, 0, message); }

    const io::Json &member(const io::Json &object, const char *key, const char *where) const
    {
        if (!object.is_object())
            fail(std::string(where) + " must be an object");
        const io::Json *found = io::findMember(object, key);
        if (found == nullptr)
            fail(std::string(where) + " has no \"" + key + "\"");
        return *found;
    }

    const std::string &text(const io::Json &value, const std::string &what) const
    {
        if (!value.is_string())
            fail(what + " must be a string");
        return value.get_ref<const std::string &>();
    }

    // XGBoost writes its parameters as decimal text ("num_feature": "47").
    std::int64_t countText(const io::Json &object, const char *key, const char *where) const
    {
        const std::string &digits = text(member(object, key, where), std::string(where) + " " + key);
        if (digits.empty() || digits.size() > 12 || digits.find_first_not_of("0123456789") != std::string::npos)
            fail(std::string(where) + " " + key + " must be a whole number, not " + io::quoteForMessage(digits));
        return std::stoll(digits);
    }

    const io::Json &array(const io::Json &object, const char *key, std::size_t size, std::int64_t tree) const
    {
        const io::Json &found = member(object, key, "a tree");
        if (!found.is_array() || found.size() != size)
            fail("tree " + std::to_string(tree) + ": \"" + key + "\" must be an array of " + std::to_string(size) +
                 " items, one per node");
        return found;
    }

    std::int64_t integer(const io::Json &value, std::int64_t tree, const char *key) const
    {
        if (!value.is_number_integer())
            fail("tree " + std::to_string(tree) + ": \"" + key + "\" must hold whole numbers");
        if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::uint64_t(kRootParent))
            fail("tree " + std::to_string(tree) + ": \"" + key + "\" holds a number out of range");
        return value.get<std::int64_t>();
    }

    void checkModelParameters(const io::Json &parameters)
    {
        const std::int64_t declared = countText(parameters, "num_feature", "learner_model_param");
        // XGBoost sizes its buffers by this count: it must be the one model.json and the data agree on.
        if (declared != mFeatureCount)
            fail("learner_model_param num_feature is " + std::to_string(declared) + ", but the model has " +
                 std::to_string(mFeatureCount) + " features");
        if (countText(parameters, "num_class", "learner_model_param") != 0)
            fail("learner_model_param num_class must be 0 (a regression)");
        if (io::findMember(parameters, "num_target") != nullptr &&
            countText(parameters, "num_target", "learner_model_param") != 1)
            fail("learner_model_param num_target must be 1");
        const std::string &base = text(member(parameters, "base_score", "learner_model_param"), "base_score");
        char *end = nullptr;
        const double value = std::strtod(base.c_str(), &end);
        if (base.empty() || end != base.c_str() + base.size() || !std::isfinite(value))
            fail("learner_model_param base_score must be a finite number, not " + io::quoteForMessage(base));
    }

    void checkTrees(const io::Json &model)
    {
        const io::Json &parameters = member(model, "gbtree_model_param", "the gbtree model");
        const std::int64_t declared = countText(parameters, "num_trees", "gbtree_model_param");
        if (io::findMember(parameters, "num_parallel_tree") != nullptr &&
            countText(parameters, "num_parallel_tree", "gbtree_model_param") != 1)
            fail("gbtree_model_param num_parallel_tree must be 1");
        if (io::findMember(parameters, "size_leaf_vector") != nullptr &&
            countText(parameters, "size_leaf_vector", "gbtree_model_param") != 0)
            fail("gbtree_model_param size_leaf_vector must be 0");
        const io::Json &trees = member(model, "trees", "the gbtree model");
        const io::Json &info = member(model, "tree_info", "the gbtree model");
        if (!trees.is_array() || std::int64_t(trees.size()) != declared)
            fail("gbtree_model_param num_trees is " + std::to_string(declared) + ", but \"trees\" holds " +
                 (trees.is_array() ? std::to_string(trees.size()) : std::string("no array")));
        if (!info.is_array() || info.size() != trees.size())
            fail("\"tree_info\" must give one output group per tree");
        for (const io::Json &group : info)
            if (!group.is_number_integer() || group.get<std::int64_t>() != 0)
                fail("\"tree_info\" must name output group 0 for every tree (one output)");
        for (std::size_t index = 0; index < trees.size(); ++index)
            checkTree(trees[index], static_cast<std::int64_t>(index));
    }

    void checkTree(const io::Json &tree, std::int64_t index)
    {
        const std::string name = "tree " + std::to_string(index);
        const io::Json &parameters = member(tree, "tree_param", "a tree");
        const std::int64_t nodes = countText(parameters, "num_nodes", "tree_param");
        if (nodes < 1 || nodes > kMostNodes)
            fail(name + ": num_nodes must be from 1 to " + std::to_string(kMostNodes));
        if (countText(parameters, "num_feature", "tree_param") != mFeatureCount)
            fail(name + ": tree_param num_feature disagrees with the model's " + std::to_string(mFeatureCount) +
                 " features");
        if (countText(parameters, "num_deleted", "tree_param") != 0)
            fail(name + ": num_deleted must be 0");
        if (io::findMember(parameters, "size_leaf_vector") != nullptr &&
            countText(parameters, "size_leaf_vector", "tree_param") != 0)
            fail(name + ": size_leaf_vector must be 0");
        if (!member(tree, "id", "a tree").is_number_integer() ||
            member(tree, "id", "a tree").get<std::int64_t>() != index)
            fail(name + ": its \"id\" must be its place in \"trees\"");

        const auto size = static_cast<std::size_t>(nodes);
        const io::Json &left = array(tree, "left_children", size, index);
        const io::Json &right = array(tree, "right_children", size, index);
        const io::Json &parents = array(tree, "parents", size, index);
        const io::Json &features = array(tree, "split_indices", size, index);
        const io::Json &types = array(tree, "split_type", size, index);
        const io::Json &defaults = array(tree, "default_left", size, index);
        for (const char *key : {"split_conditions", "base_weights", "loss_changes", "sum_hessian"})
            for (const io::Json &value : array(tree, key, size, index))
                if (!value.is_number() || !std::isfinite(value.get<double>()))
                    fail(name + ": \"" + key + "\" must hold finite numbers");
        for (const char *key : {"categories", "categories_nodes", "categories_segments", "categories_sizes"}) {
            const io::Json *categories = io::findMember(tree, key);
            if (categories != nullptr && !(categories->is_array() && categories->empty()))
                fail(name + ": categorical splits are not used by this program (\"" + key + "\" must be empty)");
        }

        // Each node but the root is the child of exactly one node, which its parent entry names.
        std::vector<std::int64_t> parentOf(size, -1);
        for (std::size_t node = 0; node < size; ++node) {
            const std::int64_t leftChild = integer(left[node], index, "left_children");
            const std::int64_t rightChild = integer(right[node], index, "right_children");
            const std::int64_t feature = integer(features[node], index, "split_indices");
            if (integer(types[node], index, "split_type") != 0)
                fail(name + ": node " + std::to_string(node) + " has a categorical split");
            const io::Json &defaultLeft = defaults[node];
            if (!(defaultLeft.is_boolean() ||
                  (defaultLeft.is_number_integer() && (defaultLeft.get<std::int64_t>() | 1) == 1)))
                fail(name + ": \"default_left\" must hold 0 or 1");
            if (leftChild == -1 && rightChild == -1) {
                if (feature < 0 || (feature >= mFeatureCount && feature != 0))
                    fail(name + ": node " + std::to_string(node) + " names a feature out of range");
                continue;
            }
            if (feature < 0 || feature >= mFeatureCount)
                fail(name + ": node " + std::to_string(node) + " splits on feature " + std::to_string(feature) +
                     ", but the model has " + std::to_string(mFeatureCount));
            for (const std::int64_t child : {leftChild, rightChild}) {
                if (child <= 0 || child >= nodes)
                    fail(name + ": node " + std::to_string(node) + " has child " + std::to_string(child) +
                         ", outside 1 to " + std::to_string(nodes - 1));
                if (parentOf[static_cast<std::size_t>(child)] != -1 || leftChild == rightChild)
                    fail(name + ": node " + std::to_string(child) + " is the child of two nodes (not a tree)");
                parentOf[static_cast<std::size_t>(child)] = static_cast<std::int64_t>(node);
            }
        }
        for (std::size_t node = 0; node < size; ++node) {
            const std::int64_t parent = integer(parents[node], index, "parents");
            const std::int64_t expected = node == 0 ? kRootParent : parentOf[node];
            if (node != 0 && expected == -1)
                fail(name + ": node " + std::to_string(node) + " is no node's child (not a tree)");
            if (parent != expected)
                fail(name + ": node " + std::to_string(node) + " names parent " + std::to_string(parent) +
                     ", but its parent is " + (node == 0 ? std::string("none (the root)") : std::to_string(expected)));
        }
        // Every node has one parent and the root none; only a walk from the root rules out a cycle apart from it.
        std::vector<bool> reached(size, false);
        std::vector<std::size_t> pending{0};
        std::size_t count = 0;
        while (!pending.empty()) {
            const std::size_t node = pending.back();
            pending.pop_back();
            if (reached[node])
                fail(name + ": node " + std::to_string(node) + " is reached twice (a cycle)");
            reached[node] = true;
            ++count;
            const std::int64_t leftChild = left[node].get<std::int64_t>();
            if (leftChild != -1) {
                pending.push_back(static_cast<std::size_t>(leftChild));
                pending.push_back(static_cast<std::size_t>(right[node].get<std::int64_t>()));
            }
        }
        if (count != size)
            fail(name + ": " + std::to_string(size - count) + " nodes cannot be reached from the root (a cycle)");
    }

    std::int64_t mFeatureCount;
    const std::string &mPath;
};

} // namespace

void checkBoosterJson(const std::string &text, std::int64_t featureCount, const std::string &path)
{
    const io::Json document = io::parseJson(text, path);
    BoosterChecker(featureCount, path).check(document);
}

} // namespace gpumem::models
