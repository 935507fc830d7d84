// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/NeuralNetworkHyperparameters.h"

#include "models/HyperparameterSpecs.h"

#include "io/InputError.h"

namespace gpumem::models {

Hyperparameters neuralNetworkHyperparameters()
{
    return Hyperparameters({
        // Architecture
        choiceSpec("architecture", "bigru_transformer",
                   {"bigru_transformer", "transformer_bigru", "transformer_only", "bigru_only"},
                   "Order of the blocks: the BiGRU before the Transformer encoder (the paper's model), after it, "
                   "or either one alone, to see what each adds."),
        booleanSpec(
            "layer_tokens", false,
            "Also turn each layer of the sequence column into a token (slower); off uses the sequence's summary "
            "features only."),
        choiceSpec("feature_tokens", "grouped", {"grouped", "per_column"},
                   "Grouped: one token per numeric column, per categorical column, for each of the sequence's two "
                   "summaries (layer counts, layer sizes) and for its activations times the batch size; per_column: "
                   "one token per encoded column (slower)."),
        integerSpec("d_model", 64, 8, 1024, "", "Width of every token vector inside the model."),
        integerSpec("gru_hidden", 32, 4, 1024, "", "Hidden size of each direction of the bidirectional GRU."),
        integerSpec("gru_layers", 1, 1, 8, "", "Number of stacked bidirectional GRU layers."),
        realSpec("gru_dropout", 0.0, 0.0, 0.9, "", "Dropout between stacked GRU layers (needs gru_layers > 1)."),
        integerSpec("heads", 4, 1, 32, "", "Attention heads per encoder layer; must divide d_model."),
        integerSpec("encoder_layers", 2, 1, 24, "", "Number of Transformer encoder layers."),
        integerSpec("feedforward", 128, 8, 8192, "", "Hidden size of the feed-forward block of each encoder layer."),
        realSpec("dropout", 0.0, 0.0, 0.9, "", "Dropout inside the encoder layers and the prediction head."),
        choiceSpec(
            "norm", "pre", {"pre", "post"},
            "Layer normalisation before each sub-block (pre, steadier) or after it (post, the original Transformer)."),
        choiceSpec("pooling", "mean", {"mean", "attention", "cls"},
                   "How the tokens become one vector: their mean, a learned attention-weighted sum, or a class token."),
        integerSpec("head_hidden", 64, 4, 4096, "", "Hidden size of the two-layer prediction head."),
        // Scaling
        booleanSpec("log_target", true, "Learn the logarithm of the memory (log1p), so errors count relatively."),
        booleanSpec("log_inputs", true,
                    "Take log1p of non-negative inputs that reach above 100 (parameters, activations, batch size)."),
        booleanSpec("allocator_input", true,
                    "Also give the network the peak that PyTorch's caching allocator would reserve for each job, "
                    "simulated from its layer sequence and batch size (the allocator_sim model without its fitted "
                    "offset); unused for data without them and for probe datasets."),
        // Training
        choiceSpec("optimizer", "adamw", {"adamw", "adam"},
                   "AdamW decouples weight decay from the gradient; Adam adds "
                   "it to the gradient."),
        choiceSpec("loss", "mse", {"mse", "huber"},
                   "What training minimises on the learned scale: the mean squared error, or the Huber (smooth L1) "
                   "loss, squared for errors below huber_delta and linear above, so that jobs the inputs cannot "
                   "explain pull no harder than their size (a lower typical relative error, a higher RMSE)."),
        realSpec("huber_delta", 0.05, 1e-4, 10.0, "",
                 "Error where the Huber loss turns linear, in log1p of MiB with log_target (0.05: about 5% of a "
                 "job's memory), else in MiB."),
        realSpec("learning_rate", 4e-3, 1e-6, 1.0, "", "Peak learning rate of the schedule."),
        realSpec("weight_decay", 1e-4, 0.0, 1.0, "", "Weight decay (L2 penalty) on every parameter."),
        integerSpec("batch_size", 64, 1, 65536, "rows", "Rows per optimisation step."),
        integerSpec("epochs", 60, 1, 100000, "epochs", "Passes over the training rows."),
        choiceSpec("schedule", "one_cycle", {"one_cycle", "cosine", "plateau", "constant"},
                   "Learning-rate schedule after warm-up: one cycle up and down, cosine decay, halve on a validation "
                   "plateau, or constant."),
        realSpec("warmup_fraction", 0.1, 0.0, 0.5, "",
                 "Share of all steps spent raising the learning rate from near zero."),
        realSpec("gradient_clip", 1.0, 0.0, 1000.0, "",
                 "Largest allowed norm of the whole gradient; 0 turns clipping off."),
        realSpec("validation_fraction", 0.0, 0.0, 0.5, "",
                 "Share of the training rows held back to watch for overfitting and pick the best epoch; 0 uses all."),
        integerSpec("patience", 0, 0, 100000, "epochs",
                    "Stop after this many epochs without a better validation loss; 0 never stops early."),
        integerSpec("ensemble", 3, 1, maxEnsembleMembers, "networks",
                    "Networks trained with seeds derived from the model's seed, whose predictions are averaged in "
                    "the space the network learns (log with log_target); 1 trains a single network."),
    });
}

std::vector<std::string> unusedNetworkHyperparameters(const Hyperparameters &hyperparameters)
{
    std::vector<std::string> unused;
    const std::string &architecture = hyperparameters.choice("architecture");
    if (architecture == "transformer_only")
        unused.insert(unused.end(), {"gru_hidden", "gru_layers", "gru_dropout"});
    if (architecture == "bigru_only")
        unused.insert(unused.end(), {"heads", "encoder_layers", "feedforward", "norm"});
    if (architecture != "transformer_only" && hyperparameters.integer("gru_layers") == 1)
        unused.emplace_back("gru_dropout");
    if (hyperparameters.choice("loss") != "huber")
        unused.emplace_back("huber_delta");
    return unused;
}

void checkNetworkHyperparameters(const Hyperparameters &hyperparameters)
{
    if (hyperparameters.integer("patience") > 0 && hyperparameters.real("validation_fraction") == 0.0)
        throw io::InputError("hyperparameters: patience " + std::to_string(hyperparameters.integer("patience")) +
                             " needs a validation share to watch; set validation_fraction above 0 or patience to 0");
}

} // namespace gpumem::models
