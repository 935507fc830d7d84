// SPDX-License-Identifier: GPL-3.0-or-later
// Parameter counts of the models an estimate trains, each checked against the sum of its
// parts written out by hand from the modeling files and against the count transformers
// publishes (model.num_parameters()); LoRA counts as peft's print_trainable_parameters gives them.
#include "DataTables.h"
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "architectures/ArchitectureConfig.h"
#include "architectures/ArchitectureLibrary.h"
#include "architectures/ParameterCount.h"
#include "io/InputError.h"

#include <QStringList>
#include <QTest>

#include <string>
#include <vector>

using gpumem::architectures::ArchitectureConfig;
using gpumem::architectures::LoraSettings;
using gpumem::tests::raisedInputError;

namespace {

ArchitectureConfig shipped(const QString &name)
{
    return gpumem::architectures::resolveArchitecture(name.toStdString());
}

LoraSettings lora(qint64 rank, const QStringList &targets)
{
    LoraSettings settings;
    settings.rank = rank;
    for (const auto &target : targets)
        settings.targets.push_back(target.toStdString());
    return settings;
}

} // namespace

class TestParameterCount : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // Llama family: embed_tokens; per layer q, k, v, o, gate, up, down and two RMSNorm
    // weights; the final norm; lm_head unless tied. GPT-2: wte, wpe; per layer ln_1, c_attn,
    // c_proj, ln_2, c_fc, c_proj (weights and biases); ln_f. BertForMaskedLM: word, position
    // and token-type embeddings and their LayerNorm; per layer query, key, value, the
    // attention's dense and LayerNorm, intermediate, output dense and LayerNorm; the head's
    // dense, LayerNorm and decoder bias (its weight tied).
    void totalsAreTheSumOfTheirParts_data()
    {
        addColumns<QString, qint64, qint64>("name", "parts", "published");
        addRow("llama-3.2-1b", "llama-3.2-1b",
               128256ll * 2048 +
                   16ll * (2048ll * 2048 + 2048ll * 512 + 2048ll * 512 + 2048ll * 2048 + 3ll * 2048 * 8192 + 2 * 2048) +
                   2048,
               1235814400ll);
        addRow("llama-3.2-3b", "llama-3.2-3b",
               128256ll * 3072 +
                   28ll *
                       (3072ll * 3072 + 3072ll * 1024 + 3072ll * 1024 + 3072ll * 3072 + 3ll * 3072 * 8192 + 2 * 3072) +
                   3072,
               3212749824ll);
        addRow("llama-3.1-8b", "llama-3.1-8b",
               128256ll * 4096 +
                   32ll *
                       (4096ll * 4096 + 4096ll * 1024 + 4096ll * 1024 + 4096ll * 4096 + 3ll * 4096 * 14336 + 2 * 4096) +
                   4096 + 128256ll * 4096,
               8030261248ll);
        addRow("llama-3.1-70b", "llama-3.1-70b",
               128256ll * 8192 +
                   80ll *
                       (8192ll * 8192 + 8192ll * 1024 + 8192ll * 1024 + 8192ll * 8192 + 3ll * 8192 * 28672 + 2 * 8192) +
                   8192 + 128256ll * 8192,
               70553706496ll);
        addRow("mistral-7b", "mistral-7b",
               32000ll * 4096 +
                   32ll *
                       (4096ll * 4096 + 4096ll * 1024 + 4096ll * 1024 + 4096ll * 4096 + 3ll * 4096 * 14336 + 2 * 4096) +
                   4096 + 32000ll * 4096,
               7241732096ll);
        // Qwen2: biases on q, k and v, none on o.
        addRow("qwen2.5-0.5b", "qwen2.5-0.5b",
               151936ll * 896 +
                   24ll * ((896ll * 896 + 896) + (896ll * 128 + 128) + (896ll * 128 + 128) + 896ll * 896 +
                           3ll * 896 * 4864 + 2 * 896) +
                   896,
               494032768ll);
        addRow("qwen2.5-7b", "qwen2.5-7b",
               152064ll * 3584 +
                   28ll * ((3584ll * 3584 + 3584) + (3584ll * 512 + 512) + (3584ll * 512 + 512) + 3584ll * 3584 +
                           3ll * 3584 * 18944 + 2 * 3584) +
                   3584 + 152064ll * 3584,
               7615616512ll);
        addRow("qwen2.5-14b", "qwen2.5-14b",
               152064ll * 5120 +
                   48ll * ((5120ll * 5120 + 5120) + (5120ll * 1024 + 1024) + (5120ll * 1024 + 1024) + 5120ll * 5120 +
                           3ll * 5120 * 13824 + 2 * 5120) +
                   5120 + 152064ll * 5120,
               14770033664ll);
        addRow("qwen2.5-32b", "qwen2.5-32b",
               152064ll * 5120 +
                   64ll * ((5120ll * 5120 + 5120) + (5120ll * 1024 + 1024) + (5120ll * 1024 + 1024) + 5120ll * 5120 +
                           3ll * 5120 * 27648 + 2 * 5120) +
                   5120 + 152064ll * 5120,
               32763876352ll);
        // Mixtral: a router of 8 outputs and 8 experts of w1, w3, w2 per layer, no biases.
        addRow("mixtral-8x7b", "mixtral-8x7b",
               32000ll * 4096 +
                   32ll * (4096ll * 4096 + 4096ll * 1024 + 4096ll * 1024 + 4096ll * 4096 + 4096ll * 8 +
                           8ll * 3 * 4096 * 14336 + 2 * 4096) +
                   4096 + 32000ll * 4096,
               46702792704ll);
        // Qwen1.5-MoE: q/k/v biases, a router of 60, 60 experts of 1,408, a shared expert
        // of 5,632 and its one-output gate.
        addRow("qwen1.5-moe-a2.7b", "qwen1.5-moe-a2.7b",
               151936ll * 2048 +
                   24ll * ((2048ll * 2048 + 2048) * 3 + 2048ll * 2048 + 2048ll * 60 + 60ll * 3 * 2048 * 1408 +
                           3ll * 2048 * 5632 + 2048 + 2 * 2048) +
                   2048 + 151936ll * 2048,
               14315784192ll);
        addRow("qwen2.5-72b", "qwen2.5-72b",
               152064ll * 8192 +
                   80ll * ((8192ll * 8192 + 8192) + (8192ll * 1024 + 1024) + (8192ll * 1024 + 1024) + 8192ll * 8192 +
                           3ll * 8192 * 29568 + 2 * 8192) +
                   8192 + 152064ll * 8192,
               72706203648ll);
        addRow("gpt2", "gpt2",
               50257ll * 768 + 1024ll * 768 +
                   12ll * (2 * 768 + (768ll * 2304 + 2304) + (768ll * 768 + 768) + 2 * 768 + (768ll * 3072 + 3072) +
                           (3072ll * 768 + 768)) +
                   2 * 768,
               124439808ll);
        addRow("gpt2-medium", "gpt2-medium",
               50257ll * 1024 + 1024ll * 1024 +
                   24ll * (2 * 1024 + (1024ll * 3072 + 3072) + (1024ll * 1024 + 1024) + 2 * 1024 +
                           (1024ll * 4096 + 4096) + (4096ll * 1024 + 1024)) +
                   2 * 1024,
               354823168ll);
        addRow("gpt2-large", "gpt2-large",
               50257ll * 1280 + 1024ll * 1280 +
                   36ll * (2 * 1280 + (1280ll * 3840 + 3840) + (1280ll * 1280 + 1280) + 2 * 1280 +
                           (1280ll * 5120 + 5120) + (5120ll * 1280 + 1280)) +
                   2 * 1280,
               774030080ll);
        addRow("gpt2-xl", "gpt2-xl",
               50257ll * 1600 + 1024ll * 1600 +
                   48ll * (2 * 1600 + (1600ll * 4800 + 4800) + (1600ll * 1600 + 1600) + 2 * 1600 +
                           (1600ll * 6400 + 6400) + (6400ll * 1600 + 1600)) +
                   2 * 1600,
               1557611200ll);
        addRow("bert-base", "bert-base",
               30522ll * 768 + 512ll * 768 + 2ll * 768 + 2 * 768 +
                   12ll * (3 * (768ll * 768 + 768) + (768ll * 768 + 768) + 2 * 768 + (768ll * 3072 + 3072) +
                           (3072ll * 768 + 768) + 2 * 768) +
                   (768ll * 768 + 768) + 2 * 768 + 30522,
               109514298ll);
        addRow("bert-large", "bert-large",
               30522ll * 1024 + 512ll * 1024 + 2ll * 1024 + 2 * 1024 +
                   24ll * (3 * (1024ll * 1024 + 1024) + (1024ll * 1024 + 1024) + 2 * 1024 + (1024ll * 4096 + 4096) +
                           (4096ll * 1024 + 1024) + 2 * 1024) +
                   (1024ll * 1024 + 1024) + 2 * 1024 + 30522,
               335174458ll);
    }
    void totalsAreTheSumOfTheirParts()
    {
        QFETCH(QString, name);
        QFETCH(qint64, parts);
        QFETCH(qint64, published);
        QCOMPARE(parts, published);
        QCOMPARE(static_cast<qint64>(gpumem::architectures::parameterCount(shipped(name))), parts);
    }

    void optionalPartsAreCounted()
    {
        // Qwen3-0.6B's config: q_norm and k_norm over head_dim 128, which is not hidden / heads.
        const auto qwen3 = gpumem::architectures::parseArchitectureConfig(
            R"({"model_type": "qwen3", "hidden_size": 1024, "num_attention_heads": 16, "num_key_value_heads": 8,
                "head_dim": 128, "num_hidden_layers": 28, "intermediate_size": 3072, "vocab_size": 151936,
                "max_position_embeddings": 40960, "rms_norm_eps": 1e-06, "tie_word_embeddings": true,
                "attention_bias": false})",
            "qwen3-0.6b.json");
        const qint64 qwen3Parts = 151936ll * 1024 +
                                  28ll * (1024ll * 2048 + 1024ll * 1024 + 1024ll * 1024 + 2048ll * 1024 +
                                          3ll * 1024 * 3072 + 2 * 1024 + 2 * 128) +
                                  1024;
        QCOMPARE(qwen3Parts, 596049920ll);
        QCOMPARE(static_cast<qint64>(gpumem::architectures::parameterCount(qwen3)), qwen3Parts);
        // Llama with attention_bias (q, k, v and o) and mlp_bias (gate, up and down).
        const auto biased = gpumem::architectures::parseArchitectureConfig(
            R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2,
                "num_hidden_layers": 3, "intermediate_size": 160, "vocab_size": 1000, "attention_bias": true,
                "mlp_bias": true})",
            "biased.json");
        const qint64 biasedParts = 1000ll * 64 +
                                   3ll * ((64 * 64 + 64) + 2 * (64 * 32 + 32) + (64 * 64 + 64) + 2 * (64 * 160 + 160) +
                                          (160 * 64 + 64) + 2 * 64) +
                                   64 + 1000ll * 64;
        QCOMPARE(static_cast<qint64>(gpumem::architectures::parameterCount(biased)), biasedParts);
        // Untied heads: GPT-2's lm_head has no bias; BERT's decoder keeps its bias either way.
        const auto gpt2 = gpumem::architectures::parseArchitectureConfig(
            R"({"model_type": "gpt2", "tie_word_embeddings": false})", "gpt2-untied.json");
        QCOMPARE(static_cast<qint64>(gpumem::architectures::parameterCount(gpt2)), 124439808ll + 50257ll * 768);
        const auto bert = gpumem::architectures::parseArchitectureConfig(
            R"({"model_type": "bert", "tie_word_embeddings": false})", "bert-untied.json");
        QCOMPARE(static_cast<qint64>(gpumem::architectures::parameterCount(bert)), 109514298ll + 30522ll * 768);
    }

    // rank × (inputs + outputs) for each targeted linear, summed over the layers.
    void loraTrainsOnlyTheAdapters_data()
    {
        addColumns<QString, qint64, QStringList, qint64>("name", "rank", "targets", "expected");
        addRow("the contract: llama-3.2-3b, r 32, q and v", "llama-3.2-3b", 32ll, QStringList{"q_proj", "v_proj"},
               28ll * 32 * ((3072 + 3072) + (3072 + 1024)));
        addRow("llama-3.2-1b, r 8, all-linear", "llama-3.2-1b", 8ll, QStringList{"all-linear"},
               16ll * 8 * ((2048 + 2048) + (2048 + 512) + (2048 + 512) + (2048 + 2048) + 3 * (2048 + 8192)));
        addRow("llama-3.1-8b, r 16, every linear by name", "llama-3.1-8b", 16ll,
               QStringList{"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"},
               32ll * 16 * ((4096 + 4096) + 2 * (4096 + 1024) + (4096 + 4096) + 3 * (4096 + 14336)));
        addRow("qwen2.5-7b, r 64, the MLP", "qwen2.5-7b", 64ll, QStringList{"gate_proj", "up_proj", "down_proj"},
               28ll * 64 * (3 * (3584 + 18944)));
        addRow("a repeated target and the shorthand in capitals", "mistral-7b", 4ll,
               QStringList{"q_proj", "q_proj", "All-Linear"},
               32ll * 4 * ((4096 + 4096) + 2 * (4096 + 1024) + (4096 + 4096) + 3 * (4096 + 14336)));
        addRow("gpt2, r 8, c_attn", "gpt2", 8ll, QStringList{"c_attn"}, 12ll * 8 * (768 + 2304));
        addRow("mixtral-8x7b, r 8, every expert's w1, w2, w3", "mixtral-8x7b", 8ll, QStringList{"w1", "w2", "w3"},
               32ll * 8 * 8 * 3 * (4096 + 14336));
        addRow("mixtral-8x7b, r 4, all-linear: the router too", "mixtral-8x7b", 4ll, QStringList{"all-linear"},
               32ll * 4 * ((4096 + 4096) + 2 * (4096 + 1024) + (4096 + 4096) + (4096 + 8) + 8 * 3 * (4096 + 14336)));
        addRow("qwen1.5-moe-a2.7b, r 8, gate_proj: the experts' and the shared expert's", "qwen1.5-moe-a2.7b", 8ll,
               QStringList{"gate_proj"}, 24ll * 8 * (60 * (2048 + 1408) + (2048 + 5632)));
        addRow("gpt2, r 4, c_proj: the attention's and the MLP's", "gpt2", 4ll, QStringList{"c_proj"},
               12ll * 4 * ((768 + 768) + (3072 + 768)));
        addRow("gpt2-medium, r 16, all-linear", "gpt2-medium", 16ll, QStringList{"all-linear"},
               24ll * 16 * ((1024 + 3072) + (1024 + 1024) + (1024 + 4096) + (4096 + 1024)));
        addRow("bert-base, r 8, query and value", "bert-base", 8ll, QStringList{"query", "value"},
               12ll * 8 * (2 * (768 + 768)));
        // dense also names the masked-LM head's transform, outside the layers.
        addRow("bert-base, r 8, dense", "bert-base", 8ll, QStringList{"dense"},
               12ll * 8 * ((768 + 768) + (768 + 3072) + (3072 + 768)) + 8ll * (768 + 768));
        addRow("bert-large, r 16, all-linear", "bert-large", 16ll, QStringList{"all-linear"},
               24ll * 16 * (4 * (1024 + 1024) + (1024 + 4096) + (4096 + 1024)) + 16ll * (1024 + 1024));
        addRow("rank 0: no LoRA", "llama-3.2-3b", 0ll, QStringList{"q_proj"}, 3212749824ll);
    }
    void loraTrainsOnlyTheAdapters()
    {
        QFETCH(QString, name);
        QFETCH(qint64, rank);
        QFETCH(QStringList, targets);
        QFETCH(qint64, expected);
        QCOMPARE(
            static_cast<qint64>(gpumem::architectures::trainableParameterCount(shipped(name), lora(rank, targets))),
            expected);
    }

    void theContractHolds()
    {
        const auto config = shipped("llama-3.2-3b");
        QCOMPARE(gpumem::architectures::parameterCount(config), 3212749824ll);
        QCOMPARE(gpumem::architectures::trainableParameterCount(config, lora(32, {"q_proj", "v_proj"})), 9175040ll);
        QCOMPARE(gpumem::architectures::trainableParameterCount(config, LoraSettings()), 3212749824ll);
    }

    void badLoraSettingsAreRefused_data()
    {
        addColumns<QString, qint64, QStringList, QString>("name", "rank", "targets", "expected");
        addRow("a target of another family", "llama-3.2-1b", 8ll, QStringList{"q_proj", "query"},
               "unknown LoRA target 'query' for llama (known: q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, "
               "down_proj, all-linear)");
        addRow("the output projection", "gpt2", 8ll, QStringList{"lm_head"},
               "unknown LoRA target 'lm_head' for gpt2 (known: c_attn, c_proj, c_fc, all-linear)");
        addRow("a name in the wrong case", "bert-base", 8ll, QStringList{"Query"},
               "unknown LoRA target 'Query' for bert (known: query, key, value, dense, all-linear)");
        addRow("no targets", "qwen2.5-0.5b", 8ll, QStringList{}, "LoRA needs at least one target module (for qwen2:");
        addRow("a negative rank", "gpt2", -1ll, QStringList{"c_attn"},
               "the LoRA rank must be a whole number from 0 to 65536, not -1");
        addRow("too large a rank", "gpt2", 65537ll, QStringList{"c_attn"}, "not 65537");
    }
    void badLoraSettingsAreRefused()
    {
        QFETCH(QString, name);
        QFETCH(qint64, rank);
        QFETCH(QStringList, targets);
        QFETCH(QString, expected);
        const std::string message =
            raisedInputError([&] {
                gpumem::architectures::trainableParameterCount(shipped(name), lora(rank, targets));
            }).what();
        QVERIFY2(contains(message, expected.toStdString()), message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
    }

    void everyFamilyNamesItsTargets()
    {
        using gpumem::architectures::Family;
        using Names = std::vector<std::string>;
        QCOMPARE(gpumem::architectures::loraTargetNames(Family::Llama),
                 (Names{"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}));
        QCOMPARE(gpumem::architectures::loraTargetNames(Family::Gpt2), (Names{"c_attn", "c_proj", "c_fc"}));
        QCOMPARE(gpumem::architectures::loraTargetNames(Family::Bert), (Names{"query", "key", "value", "dense"}));
    }
};

QTEST_GUILESS_MAIN(TestParameterCount)
#include "test_ParameterCount.moc"
