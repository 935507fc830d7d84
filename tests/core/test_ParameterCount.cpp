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

using gpumem::architectures::ArchitectureConfig, gpumem::architectures::LoraSettings, gpumem::tests::raisedInputError;

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

// Whether the output head shares the token embedding's weight (tie_word_embeddings).
enum class Head
{
    Tied,
    Own
};

// Llama, Mistral and Mixtral: embed_tokens; per layer q and o (hidden²), k and v (hidden ×
// kvWidth, the key-value heads × head_dim), the MLP's gate, up and down (hidden ×
// intermediate each; with experts, a router of that many outputs and that many such
// triples) and two RMSNorm weights; the final norm; lm_head unless tied.
qint64 llamaParts(qint64 vocab, qint64 hidden, qint64 layers, qint64 kvWidth, qint64 intermediate, Head head,
                  qint64 experts = 0)
{
    const qint64 mlp =
        experts == 0 ? 3 * hidden * intermediate : hidden * experts + experts * 3 * hidden * intermediate;
    const qint64 layer = 2 * hidden * hidden + 2 * hidden * kvWidth + mlp + 2 * hidden;
    return vocab * hidden + layers * layer + hidden + (head == Head::Tied ? 0 : vocab * hidden);
}

// Qwen2: Llama's parts with biases on q, k and v, none on o.
qint64 qwen2Parts(qint64 vocab, qint64 hidden, qint64 layers, qint64 kvWidth, qint64 intermediate, Head head)
{
    return llamaParts(vocab, hidden, layers, kvWidth, intermediate, head) + layers * (hidden + 2 * kvWidth);
}

// GPT-2 (its four sizes differ only in width and depth; the MLP is 4 × hidden): wte, wpe;
// per layer ln_1, c_attn, c_proj, ln_2, c_fc, c_proj (weights and biases); ln_f.
qint64 gpt2Parts(qint64 hidden, qint64 layers)
{
    const qint64 layer = 2 * hidden + (hidden * 3 * hidden + 3 * hidden) + (hidden * hidden + hidden) + 2 * hidden +
                         (hidden * 4 * hidden + 4 * hidden) + (4 * hidden * hidden + hidden);
    return 50257ll * hidden + 1024ll * hidden + layers * layer + 2 * hidden;
}

// BertForMaskedLM: word, position and token-type embeddings and their LayerNorm; per layer
// query, key, value, the attention's dense and LayerNorm, intermediate (4 × hidden), output
// dense and LayerNorm; the head's dense, LayerNorm and decoder bias (its weight tied).
qint64 bertParts(qint64 hidden, qint64 layers)
{
    const qint64 layer = 3 * (hidden * hidden + hidden) + (hidden * hidden + hidden) + 2 * hidden +
                         (hidden * 4 * hidden + 4 * hidden) + (4 * hidden * hidden + hidden) + 2 * hidden;
    return 30522ll * hidden + 512ll * hidden + 2ll * hidden + 2 * hidden + layers * layer + (hidden * hidden + hidden) +
           2 * hidden + 30522;
}

} // namespace

class TestParameterCount : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // The parts are written out in the helpers above, one family each.
    void totalsAreTheSumOfTheirParts_data()
    {
        addColumns<QString, qint64, qint64>("name", "parts", "published");
        addRow("llama-3.2-1b", "llama-3.2-1b", llamaParts(128256, 2048, 16, 512, 8192, Head::Tied), 1235814400ll);
        addRow("llama-3.2-3b", "llama-3.2-3b", llamaParts(128256, 3072, 28, 1024, 8192, Head::Tied), 3212749824ll);
        addRow("llama-3.1-8b", "llama-3.1-8b", llamaParts(128256, 4096, 32, 1024, 14336, Head::Own), 8030261248ll);
        addRow("llama-3.1-70b", "llama-3.1-70b", llamaParts(128256, 8192, 80, 1024, 28672, Head::Own), 70553706496ll);
        addRow("mistral-7b", "mistral-7b", llamaParts(32000, 4096, 32, 1024, 14336, Head::Own), 7241732096ll);
        addRow("qwen2.5-0.5b", "qwen2.5-0.5b", qwen2Parts(151936, 896, 24, 128, 4864, Head::Tied), 494032768ll);
        addRow("qwen2.5-7b", "qwen2.5-7b", qwen2Parts(152064, 3584, 28, 512, 18944, Head::Own), 7615616512ll);
        addRow("qwen2.5-14b", "qwen2.5-14b", qwen2Parts(152064, 5120, 48, 1024, 13824, Head::Own), 14770033664ll);
        addRow("qwen2.5-32b", "qwen2.5-32b", qwen2Parts(152064, 5120, 64, 1024, 27648, Head::Own), 32763876352ll);
        addRow("qwen2.5-72b", "qwen2.5-72b", qwen2Parts(152064, 8192, 80, 1024, 29568, Head::Own), 72706203648ll);
        // Mixtral: a router of 8 outputs and 8 experts of w1, w3, w2 per layer, no biases.
        addRow("mixtral-8x7b", "mixtral-8x7b", llamaParts(32000, 4096, 32, 1024, 14336, Head::Own, 8), 46702792704ll);
        // Qwen1.5-MoE: q/k/v biases, a router of 60, 60 experts of 1,408, a shared expert
        // of 5,632 and its one-output gate.
        addRow("qwen1.5-moe-a2.7b", "qwen1.5-moe-a2.7b",
               151936ll * 2048 +
                   24ll * ((2048ll * 2048 + 2048) * 3 + 2048ll * 2048 + 2048ll * 60 + 60ll * 3 * 2048 * 1408 +
                           3ll * 2048 * 5632 + 2048 + 2 * 2048) +
                   2048 + 151936ll * 2048,
               14315784192ll);
        addRow("gpt2", "gpt2", gpt2Parts(768, 12), 124439808ll);
        addRow("gpt2-medium", "gpt2-medium", gpt2Parts(1024, 24), 354823168ll);
        addRow("gpt2-large", "gpt2-large", gpt2Parts(1280, 36), 774030080ll);
        addRow("gpt2-xl", "gpt2-xl", gpt2Parts(1600, 48), 1557611200ll);
        addRow("bert-base", "bert-base", bertParts(768, 12), 109514298ll);
        addRow("bert-large", "bert-large", bertParts(1024, 24), 335174458ll);
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
