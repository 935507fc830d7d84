// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/Json.h"
#include "io/JsonWriter.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gpumem::models {

enum class HyperparameterType
{
    Integer,
    Real,
    Boolean,
    Choice,
};

using HyperparameterValue = std::variant<std::int64_t, double, bool, std::string>;

// The description of one hyperparameter: the single source for the command
// line's --set, presets and configuration files, and the workbench's form and tooltips.
struct HyperparameterSpec
{
    std::string name; // snake_case, as typed after --set
    HyperparameterType type = HyperparameterType::Real;
    HyperparameterValue defaultValue;
    double minimum = 0.0; // Integer and Real: inclusive range
    double maximum = 0.0;
    std::vector<std::string> choices; // Choice: the allowed values
    std::string unit;                 // e.g. "epochs", "rows"; empty when unitless
    std::string help;                 // one sentence
};

// Returns the lower-case name of a type, as written in descriptions ("integer", …).
std::string hyperparameterTypeName(HyperparameterType type);

// A set of hyperparameter values checked against their descriptions. Starts at
// the defaults; every change is validated (type and range) and errors name the
// hyperparameter. Not thread-safe; copy it to hand it to another thread.
class Hyperparameters
{
  public:
    // An empty set, e.g. for a result that has not been filled yet.
    Hyperparameters() = default;
    explicit Hyperparameters(std::vector<HyperparameterSpec> specs);

    const std::vector<HyperparameterSpec> &specs() const { return mSpecs; }
    const HyperparameterSpec &spec(const std::string &name) const;
    // True when name is one of the described hyperparameters.
    bool contains(const std::string &name) const;
    // Returns every name in description order, comma-separated ("epochs, batch_size, …"), for messages.
    std::string namesText() const;

    // Sets name from text as typed after --set ("epochs=20" gives name "epochs", text "20").
    void setFromText(const std::string &name, const std::string &text);
    // Applies "name=value" as given to --set.
    void setAssignment(const std::string &assignment);
    void set(const std::string &name, const HyperparameterValue &value);
    // Applies every member of a JSON object (a preset or --config file); unknown names are errors.
    void apply(const io::Json &object, const std::string &sourceName);

    std::int64_t integer(const std::string &name) const;
    double real(const std::string &name) const;
    bool boolean(const std::string &name) const;
    const std::string &choice(const std::string &name) const;

    // Returns {"name": value, …} in description order: the JSON form that apply() reads back.
    io::Json values() const;
    // Returns [{"name", "type", "default", "minimum", "maximum", "choices", "unit", "help"}, …].
    io::Json descriptions() const;
    // Writes descriptions() through a streaming writer.
    void writeDescriptions(io::JsonWriter &writer) const;
    // Returns "name=value" text of a value, e.g. for progress lines and reports.
    std::string text(const std::string &name) const;

  private:
    std::size_t indexOf(const std::string &name) const;

    std::vector<HyperparameterSpec> mSpecs;
    std::vector<HyperparameterValue> mValues;
};

// The JSON form of a set of values, as Hyperparameters::values() returns it
// (reading goes through Hyperparameters::apply(), which needs the descriptions).
void to_json(io::Json &json, const Hyperparameters &hyperparameters);

} // namespace gpumem::models
