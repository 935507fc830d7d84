// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a language model's config.json as input from elsewhere: the shipped library
// loads with the published values, absent keys take transformers' defaults, and every
// malformed, oversized or hostile file is refused on one line naming the file and the key.
#include "DataTables.h"
#include "FileSystemHazards.h"
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "architectures/ArchitectureConfig.h"
#include "architectures/ArchitectureLibrary.h"
#include "io/InputError.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <string>
#include <sys/stat.h>
#include <vector>

using gpumem::architectures::ArchitectureConfig, gpumem::architectures::Family, gpumem::tests::raisedInputError;

namespace {

ArchitectureConfig parsed(const std::string &text)
{
    return gpumem::architectures::parseArchitectureConfig(text, "model/config.json");
}

bool isOneLine(const std::string &message)
{
    return message.find('\n') == std::string::npos && message.find('\r') == std::string::npos;
}

// The published values of each shipped config.json, one model a line.
struct ShippedConfig
{
    const char *name;
    const char *modelType;
    qint64 hidden, layers, heads, keyValueHeads, headDim, intermediate, vocabulary, positions;
    bool tied;
};
const ShippedConfig shippedConfigs[] = {
    {"llama-3.2-1b", "llama", 2048, 16, 32, 8, 64, 8192, 128256, 131072, true},
    {"llama-3.2-3b", "llama", 3072, 28, 24, 8, 128, 8192, 128256, 131072, true},
    {"llama-3.1-8b", "llama", 4096, 32, 32, 8, 128, 14336, 128256, 131072, false},
    {"llama-3.1-70b", "llama", 8192, 80, 64, 8, 128, 28672, 128256, 131072, false},
    {"mistral-7b", "mistral", 4096, 32, 32, 8, 128, 14336, 32000, 32768, false},
    {"mixtral-8x7b", "mixtral", 4096, 32, 32, 8, 128, 14336, 32000, 32768, false},
    {"qwen1.5-moe-a2.7b", "qwen2_moe", 2048, 24, 16, 16, 128, 5632, 151936, 8192, false},
    {"qwen2.5-0.5b", "qwen2", 896, 24, 14, 2, 64, 4864, 151936, 32768, true},
    {"qwen2.5-7b", "qwen2", 3584, 28, 28, 4, 128, 18944, 152064, 131072, false},
    {"qwen2.5-14b", "qwen2", 5120, 48, 40, 8, 128, 13824, 152064, 131072, false},
    {"qwen2.5-32b", "qwen2", 5120, 64, 40, 8, 128, 27648, 152064, 131072, false},
    {"qwen2.5-72b", "qwen2", 8192, 80, 64, 8, 128, 29568, 152064, 131072, false},
    {"gpt2", "gpt2", 768, 12, 12, 12, 64, 3072, 50257, 1024, true},
    {"gpt2-medium", "gpt2", 1024, 24, 16, 16, 64, 4096, 50257, 1024, true},
    {"gpt2-large", "gpt2", 1280, 36, 20, 20, 64, 5120, 50257, 1024, true},
    {"gpt2-xl", "gpt2", 1600, 48, 25, 25, 64, 6400, 50257, 1024, true},
    {"bert-base", "bert", 768, 12, 12, 12, 64, 3072, 30522, 512, true},
    {"bert-large", "bert", 1024, 24, 16, 16, 64, 4096, 30522, 512, true},
};

} // namespace

class TestArchitectureConfig : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void theLibraryListsTheShippedConfigs()
    {
        const std::vector<std::string> expected = {
            "bert-base",         "bert-large",   "gpt2",         "gpt2-large",   "gpt2-medium", "gpt2-xl",
            "llama-3.1-70b",     "llama-3.1-8b", "llama-3.2-1b", "llama-3.2-3b", "mistral-7b",  "mixtral-8x7b",
            "qwen1.5-moe-a2.7b", "qwen2.5-0.5b", "qwen2.5-14b",  "qwen2.5-32b",  "qwen2.5-72b", "qwen2.5-7b"};
        QCOMPARE(gpumem::architectures::architectureNames(), expected);
    }

    void everyShippedConfigLoads_data()
    {
        addColumns<QString, QString, qint64, qint64, qint64, qint64, qint64, qint64, qint64, qint64, bool>(
            "name", "modelType", "hidden", "layers", "heads", "keyValueHeads", "headDim", "intermediate", "vocabulary",
            "positions", "tied");
        for (const auto &config : shippedConfigs)
            addRow(config.name, QString(config.name), QString(config.modelType), config.hidden, config.layers,
                   config.heads, config.keyValueHeads, config.headDim, config.intermediate, config.vocabulary,
                   config.positions, config.tied);
    }
    void everyShippedConfigLoads()
    {
        QFETCH(QString, name);
        QFETCH(QString, modelType);
        const ArchitectureConfig config = gpumem::architectures::resolveArchitecture(name.toStdString());
        QCOMPARE(QString::fromStdString(config.name), name);
        QCOMPARE(QString::fromStdString(config.modelType), modelType);
        QTEST(static_cast<qint64>(config.hiddenSize), "hidden");
        QTEST(static_cast<qint64>(config.layers), "layers");
        QTEST(static_cast<qint64>(config.attentionHeads), "heads");
        QTEST(static_cast<qint64>(config.keyValueHeads), "keyValueHeads");
        QTEST(static_cast<qint64>(config.headDim), "headDim");
        QTEST(static_cast<qint64>(config.intermediateSize), "intermediate");
        QTEST(static_cast<qint64>(config.vocabulary), "vocabulary");
        QTEST(static_cast<qint64>(config.maxPositions), "positions");
        QTEST(config.tiedEmbeddings, "tied");
    }

    void eachFamilyHasItsBiasesAndNorms()
    {
        const auto llama = gpumem::architectures::resolveArchitecture("llama-3.1-8b");
        QCOMPARE(llama.family, Family::Llama);
        QVERIFY(!llama.queryKeyValueBias && !llama.outputProjectionBias && !llama.mlpBias && !llama.queryKeyNorm);
        QCOMPARE(llama.activation, std::string("silu"));
        QCOMPARE(llama.normEpsilon, 1e-5);
        const auto qwen = gpumem::architectures::resolveArchitecture("qwen2.5-7b");
        QVERIFY(qwen.queryKeyValueBias && !qwen.outputProjectionBias && !qwen.mlpBias);
        QCOMPARE(qwen.normEpsilon, 1e-6);
        const auto gpt2 = gpumem::architectures::resolveArchitecture("gpt2");
        QCOMPARE(gpt2.family, Family::Gpt2);
        QVERIFY(gpt2.queryKeyValueBias && gpt2.outputProjectionBias && gpt2.mlpBias);
        QCOMPARE(gpt2.activation, std::string("gelu_new"));
        QCOMPARE(gpt2.typeVocabulary, 0);
        const auto bert = gpumem::architectures::resolveArchitecture("bert-base");
        QCOMPARE(bert.family, Family::Bert);
        QCOMPARE(bert.typeVocabulary, 2);
        QCOMPARE(bert.activation, std::string("gelu"));
        QCOMPARE(bert.normEpsilon, 1e-12);
    }

    void absentKeysTakeTransformersDefaults()
    {
        const auto llama = parsed(R"({"model_type": "llama"})");
        QCOMPARE(llama.hiddenSize, 4096);
        QCOMPARE(llama.intermediateSize, 11008);
        QCOMPARE(llama.keyValueHeads, 32); // as many as the attention heads
        QCOMPARE(llama.headDim, 128);
        QCOMPARE(llama.vocabulary, 32000);
        QCOMPARE(llama.maxPositions, 2048);
        QCOMPARE(llama.normEpsilon, 1e-6);
        QVERIFY(!llama.tiedEmbeddings);
        const auto mistral = parsed(R"({"model_type": "mistral"})");
        QCOMPARE(mistral.keyValueHeads, 8);
        QCOMPARE(mistral.intermediateSize, 14336);
        QCOMPARE(mistral.maxPositions, 131072);
        const auto qwen2 = parsed(R"({"model_type": "qwen2", "num_attention_heads": 64})");
        QCOMPARE(qwen2.keyValueHeads, 32); // Qwen2Config's own default, not the head count
        QCOMPARE(qwen2.vocabulary, 151936);
        QVERIFY(qwen2.queryKeyValueBias && !qwen2.outputProjectionBias);
        // Qwen3Config gives head_dim 128 whatever the hidden size.
        const auto qwen3 = parsed(R"({"model_type": "qwen3", "hidden_size": 1024, "num_attention_heads": 16,
                                      "num_key_value_heads": 8})");
        QCOMPARE(qwen3.headDim, 128);
        QVERIFY(qwen3.queryKeyNorm && !qwen3.queryKeyValueBias);
        const auto gpt2 = parsed(R"({"model_type": "gpt2"})");
        QCOMPARE(gpt2.hiddenSize, 768);
        QCOMPARE(gpt2.intermediateSize, 3072);
        QCOMPARE(gpt2.maxPositions, 1024);
        QVERIFY(gpt2.tiedEmbeddings);
        const auto bert = parsed(R"({"model_type": "bert"})");
        QCOMPARE(bert.vocabulary, 30522);
        QCOMPARE(bert.maxPositions, 512);
        QCOMPARE(bert.typeVocabulary, 2);
        QVERIFY(bert.tiedEmbeddings);
    }

    void nullsAndExplicitKeysActAsInTransformers()
    {
        const auto llama = parsed(R"({"model_type": "llama", "num_key_value_heads": null, "head_dim": 96,
                                      "attention_bias": true, "mlp_bias": true})");
        QCOMPARE(llama.keyValueHeads, 32);
        QCOMPARE(llama.headDim, 96);
        QVERIFY(llama.queryKeyValueBias && llama.outputProjectionBias && llama.mlpBias);
        const auto mistral = parsed(R"({"model_type": "mistral", "num_key_value_heads": null,
                                        "attention_bias": true, "mlp_bias": true})");
        QCOMPARE(mistral.keyValueHeads, 32);
        // MistralAttention and MistralMLP have no biases whatever the file says.
        QVERIFY(!mistral.queryKeyValueBias && !mistral.outputProjectionBias && !mistral.mlpBias);
        const auto qwen3 = parsed(R"({"model_type": "qwen3", "attention_bias": true})");
        QVERIFY(qwen3.queryKeyValueBias && qwen3.outputProjectionBias);
        const auto gpt2 = parsed(R"({"model_type": "gpt2", "n_inner": null, "n_embd": 1024, "n_head": 16})");
        QCOMPARE(gpt2.intermediateSize, 4096);
        const auto aliased = parsed(R"({"model_type": "gpt2", "hidden_size": 1280, "n_head": 20,
                                        "max_position_embeddings": 2048})");
        QCOMPARE(aliased.hiddenSize, 1280);
        QCOMPARE(aliased.maxPositions, 2048);
        const auto untied = parsed(R"({"model_type": "bert", "tie_word_embeddings": false})");
        QVERIFY(!untied.tiedEmbeddings);
    }

    void unknownKeysAreIgnored()
    {
        const auto config = parsed(R"({"model_type": "llama", "quantization_config": {"bits": 4, "x": [1, 2.5]},
                                       "auto_map": {}, "rope_scaling": null, "custom": "anything"})");
        QCOMPARE(config.hiddenSize, 4096);
    }

    void theNameFollowsTheFile()
    {
        QCOMPARE(gpumem::architectures::parseArchitectureConfig(R"({"model_type": "gpt2"})",
                                                                "/models/Llama-3.2-1B/config.json")
                     .name,
                 std::string("Llama-3.2-1B"));
        QCOMPARE(gpumem::architectures::parseArchitectureConfig(R"({"model_type": "gpt2"})", "tiny-gpt.json").name,
                 std::string("tiny-gpt"));
        QCOMPARE(gpumem::architectures::parseArchitectureConfig(R"({"model_type": "gpt2"})", "config.json").name,
                 std::string("config"));
    }

    void hostileConfigsAreRefusedOnOneLine_data()
    {
        addColumns<QString, QString>("text", "expected");
        addRow("not JSON", R"({"model_type": )", "model/config.json:");
        addRow("not an object", "[1, 2]", "a config.json is a JSON object, not an array");
        addRow("a repeated key", R"({"model_type": "llama", "model_type": "gpt2"})", "duplicate key");
        addRow("no model_type", R"({"hidden_size": 64})",
               "\"model_type\" as a string (supported: llama, mistral, qwen2, qwen3, mixtral, qwen2_moe, gpt2, bert)");
        addRow("model_type a number", R"({"model_type": 7})", "\"model_type\" as a string");
        addRow("unknown model_type", R"({"model_type": "t5"})",
               "\"model_type\" 't5' is not supported (supported: llama, mistral, qwen2, qwen3, mixtral, qwen2_moe, "
               "gpt2, bert)");
        addRow("more experts per token than experts",
               R"({"model_type": "mixtral", "num_local_experts": 4, "num_experts_per_tok": 5})",
               "\"num_experts_per_tok\" 5 is more than the 4 experts");
        addRow("zero experts", R"({"model_type": "qwen2_moe", "num_experts": 0})",
               "\"num_experts\" must be an integer from 1 to 1024, not '0'");
        addRow("experts in some layers only", R"({"model_type": "qwen2_moe", "decoder_sparse_step": 2})",
               "\"decoder_sparse_step\" '2' is not supported: only a mixture of experts in every layer is modelled");
        addRow("dense layers among the experts", R"({"model_type": "qwen2_moe", "mlp_only_layers": [0, 3]})",
               "\"mlp_only_layers\" '[0,3]' is not supported");
        addRow("a string where an integer belongs", R"({"model_type": "llama", "hidden_size": "4096"})",
               "\"hidden_size\" must be an integer from 1 to 65536, not '\"4096\"'");
        addRow("a float layer count", R"({"model_type": "llama", "num_hidden_layers": 3.5})",
               "\"num_hidden_layers\" must be an integer from 1 to 1024, not '3.5'");
        addRow("a whole float", R"({"model_type": "gpt2", "n_layer": 12.0})", "\"n_layer\" must be an integer");
        addRow("negative heads", R"({"model_type": "llama", "num_attention_heads": -32})",
               "\"num_attention_heads\" must be an integer from 1 to 1024, not '-32'");
        addRow("zero vocabulary", R"({"model_type": "bert", "vocab_size": 0})",
               "\"vocab_size\" must be an integer from 1 to 4194304, not '0'");
        addRow("2^64 - 1 hidden", R"({"model_type": "llama", "hidden_size": 18446744073709551615})",
               "\"hidden_size\" must be an integer from 1 to 65536");
        addRow("a number past 64 bits", R"({"model_type": "llama", "hidden_size": 1e30})",
               "\"hidden_size\" must be an integer");
        addRow("too many layers", R"({"model_type": "qwen2", "num_hidden_layers": 1025})", "\"num_hidden_layers\"");
        addRow("too wide an MLP", R"({"model_type": "llama", "intermediate_size": 262145})", "\"intermediate_size\"");
        addRow("too large a vocabulary", R"({"model_type": "gpt2", "vocab_size": 4194305})", "\"vocab_size\"");
        addRow("too many positions", R"({"model_type": "bert", "max_position_embeddings": 16777217})",
               "\"max_position_embeddings\"");
        addRow("too many token types", R"({"model_type": "bert", "type_vocab_size": 100000})", "\"type_vocab_size\"");
        addRow("too large a head", R"({"model_type": "qwen3", "head_dim": 2048})",
               "\"head_dim\" must be an integer from 1 to 1024");
        addRow("too large a derived head", R"({"model_type": "llama", "hidden_size": 65536, "num_attention_heads": 2})",
               "the head size \"hidden_size\" / \"num_attention_heads\" = 32768 must be at most 1024");
        addRow("heads not divisible by key-value heads",
               R"({"model_type": "llama", "num_attention_heads": 32, "num_key_value_heads": 6})",
               "\"num_attention_heads\" 32 is not a multiple of \"num_key_value_heads\" 6");
        addRow("more key-value heads than heads",
               R"({"model_type": "mistral", "num_attention_heads": 4, "num_key_value_heads": 8})",
               "is not a multiple of \"num_key_value_heads\" 8");
        addRow("hidden not divisible by heads",
               R"({"model_type": "llama", "hidden_size": 100, "num_attention_heads": 3})",
               "\"hidden_size\" 100 is not a multiple of \"num_attention_heads\" 3");
        addRow("gpt2 hidden not divisible by heads", R"({"model_type": "gpt2", "n_embd": 100, "n_head": 3})",
               "\"n_embd\" 100 is not a multiple of \"n_head\" 3");
        addRow("a string for a boolean", R"({"model_type": "llama", "tie_word_embeddings": "true"})",
               "\"tie_word_embeddings\" must be true or false, not '\"true\"'");
        addRow("a null for a boolean", R"({"model_type": "llama", "attention_bias": null})",
               "\"attention_bias\" must be true or false");
        addRow("a zero epsilon", R"({"model_type": "llama", "rms_norm_eps": 0})", "\"rms_norm_eps\" must be a number");
        addRow("an epsilon of one", R"({"model_type": "gpt2", "layer_norm_epsilon": 1.0})", "\"layer_norm_epsilon\"");
        addRow("a negative epsilon", R"({"model_type": "bert", "layer_norm_eps": -1e-12})", "\"layer_norm_eps\"");
        addRow("an infinite epsilon", R"({"model_type": "bert", "layer_norm_eps": 1e999})", "number overflow");
        addRow("an unknown activation", R"({"model_type": "llama", "hidden_act": "swiglu"})",
               "\"hidden_act\" must be one of silu, gelu, gelu_new, gelu_pytorch_tanh, relu, not '\"swiglu\"'");
        addRow("an activation that is no string", R"({"model_type": "gpt2", "activation_function": ["gelu"]})",
               "\"activation_function\" must be one of");
        addRow("GPT-2's two names disagree", R"({"model_type": "gpt2", "n_embd": 768, "hidden_size": 1024})",
               "\"n_embd\" and its other name \"hidden_size\" disagree (768 and '1024')");
        addRow("relative positions", R"({"model_type": "bert", "position_embedding_type": "relative_key"})",
               "\"position_embedding_type\" '\"relative_key\"' is not supported");
        addRow("cross-attention", R"({"model_type": "gpt2", "add_cross_attention": true})",
               "\"add_cross_attention\" 'true' is not supported");
        addRow("a control character in model_type", "{\"model_type\": \"ll\\nama\"}", "'ll?ama' is not supported");
    }
    void hostileConfigsAreRefusedOnOneLine()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto error = raisedInputError([&] { parsed(text.toStdString()); });
        const std::string message = error.what();
        QVERIFY2(message.rfind("model/config.json:", 0) == 0, message.c_str());
        QVERIFY2(contains(message, expected.toStdString()), message.c_str());
        QVERIFY2(isOneLine(message), message.c_str());
    }

    void textOverOneMebibyteIsRefused()
    {
        // Valid JSON, padded with spaces past the limit: the size is checked before the parse.
        const std::string text = R"({"model_type": "llama")" + std::string(1u << 20, ' ') + "}";
        const std::string message = raisedInputError([&] { parsed(text); }).what();
        QVERIFY2(contains(message, "model/config.json: a config.json may hold at most 1 MiB"), message.c_str());
        QTemporaryDir folder;
        const QString file = folder.filePath("big.json");
        QVERIFY(writeText(file, text));
        const std::string fromFile =
            raisedInputError([&] { gpumem::architectures::readArchitectureConfig(file.toStdString()); }).what();
        QVERIFY2(contains(fromFile, file.toStdString() + ":"), fromFile.c_str());
        QVERIFY2(isOneLine(fromFile), fromFile.c_str());
    }

    void aFifoIsRefusedAtOnce()
    {
        QTemporaryDir folder;
        const std::string fifo = folder.filePath("config.json").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const auto finished = gpumem::tests::resultUnlessBlockedOn(QString::fromStdString(fifo), [&] {
            return std::string(raisedInputError([&] { gpumem::architectures::resolveArchitecture(fifo); }).what());
        });
        QVERIFY2(finished, "reading the config waited for a writer on the FIFO");
        QVERIFY2(contains(*finished, fifo + ": is not a regular file"), finished->c_str());
        QVERIFY2(isOneLine(*finished), finished->c_str());
    }

    void aFolderIsNoConfigFile()
    {
        QTemporaryDir folder;
        const std::string path = folder.path().toStdString();
        const std::string message =
            raisedInputError([&] { gpumem::architectures::readArchitectureConfig(path); }).what();
        QVERIFY2(contains(message, path + ": is a folder, not a file"), message.c_str());
        QVERIFY2(isOneLine(message), message.c_str());
    }

    void aModelFolderIsReadThroughItsConfig()
    {
        QTemporaryDir folder;
        QVERIFY(QDir(folder.path()).mkdir("Tiny-Llama"));
        const QString model = folder.filePath("Tiny-Llama");
        QVERIFY(writeText(model + "/config.json", R"({"model_type": "llama", "hidden_size": 256,
                                                      "num_attention_heads": 4, "num_hidden_layers": 2})"));
        const auto fromFolder = gpumem::architectures::resolveArchitecture(model.toStdString());
        QCOMPARE(fromFolder.name, std::string("Tiny-Llama"));
        QCOMPARE(fromFolder.layers, 2);
        const auto fromFile = gpumem::architectures::resolveArchitecture((model + "/config.json").toStdString());
        QCOMPARE(fromFile.hiddenSize, 256);
    }

    void namesAreCaseInsensitive()
    {
        const auto config = gpumem::architectures::resolveArchitecture("LLaMA-3.2-3B");
        QCOMPARE(config.name, std::string("llama-3.2-3b"));
        QCOMPARE(config.hiddenSize, 3072);
    }

    void anUnknownNameListsTheLibrary()
    {
        const std::string message =
            raisedInputError([&] { gpumem::architectures::resolveArchitecture("gpt5"); }).what();
        QVERIFY2(contains(message, "no architecture named 'gpt5'; known: bert-base, bert-large, gpt2, gpt2-large"),
                 message.c_str());
        QVERIFY2(contains(message, "qwen2.5-7b (or give the path of a config.json)"), message.c_str());
        QVERIFY2(isOneLine(message), message.c_str());
        // A path names a file, whose own problem is the message.
        const std::string missing =
            raisedInputError([&] { gpumem::architectures::resolveArchitecture("absent/config.json"); }).what();
        QVERIFY2(contains(missing, "absent/config.json: cannot open the file"), missing.c_str());
    }

    void theEnvironmentFolderComesFirst()
    {
        QTemporaryDir folder;
        QVERIFY(writeText(folder.filePath("tiny.json"), R"({"model_type": "gpt2", "n_layer": 2})"));
        QVERIFY(writeText(folder.filePath("gpt2.json"), R"({"model_type": "gpt2", "n_layer": 3})"));
        qputenv("GPUMEM_ARCHITECTURE_DIR", QFile::encodeName(folder.path()));
        const auto names = gpumem::architectures::architectureNames();
        const auto tiny = gpumem::architectures::resolveArchitecture("Tiny");
        const auto replaced = gpumem::architectures::resolveArchitecture("gpt2");
        qunsetenv("GPUMEM_ARCHITECTURE_DIR");
        QVERIFY(std::find(names.begin(), names.end(), "tiny") != names.end());
        QCOMPARE(tiny.name, std::string("tiny"));
        QCOMPARE(tiny.layers, 2);
        QCOMPARE(replaced.layers, 3);
    }
};

QTEST_GUILESS_MAIN(TestArchitectureConfig)
#include "test_ArchitectureConfig.moc"
