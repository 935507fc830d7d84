// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/Hyperparameters.h"

#include "io/InputError.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace gpumem::models {

namespace {

std::string formatReal(double value)
{
    char buffer[32];
    // General format: "0.0005" and "100000" read better than "5e-04" and "1e+05".
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general);
    return std::string(buffer, result.ptr);
}

std::string rangeText(const HyperparameterSpec &spec)
{
    return "[" + formatReal(spec.minimum) + ", " + formatReal(spec.maximum) + "]";
}

std::string choicesText(const HyperparameterSpec &spec)
{
    std::string text;
    for (const auto &choice : spec.choices)
        text += (text.empty() ? "" : ", ") + choice;
    return text;
}

[[noreturn]] void invalid(const HyperparameterSpec &spec, const std::string &problem)
{
    throw io::InputError("hyperparameter " + spec.name + ": " + problem);
}

HyperparameterValue checked(const HyperparameterSpec &spec, const HyperparameterValue &value)
{
    switch (spec.type) {
    case HyperparameterType::Integer: {
        std::int64_t number = 0;
        if (const auto *integer = std::get_if<std::int64_t>(&value))
            number = *integer;
        else if (const auto *real = std::get_if<double>(&value);
                 real && std::floor(*real) == *real && std::fabs(*real) < 9e15)
            number = static_cast<std::int64_t>(*real);
        else
            invalid(spec, "expected a whole number");
        if (number < spec.minimum || number > spec.maximum)
            invalid(spec, std::to_string(number) + " is outside " + rangeText(spec));
        return number;
    }
    case HyperparameterType::Real: {
        double number = 0.0;
        if (const auto *real = std::get_if<double>(&value))
            number = *real;
        else if (const auto *integer = std::get_if<std::int64_t>(&value))
            number = static_cast<double>(*integer);
        else
            invalid(spec, "expected a number");
        if (!(number >= spec.minimum && number <= spec.maximum))
            invalid(spec, formatReal(number) + " is outside " + rangeText(spec));
        return number;
    }
    case HyperparameterType::Boolean:
        if (!std::holds_alternative<bool>(value))
            invalid(spec, "expected true or false");
        return value;
    case HyperparameterType::Choice: {
        const auto *text = std::get_if<std::string>(&value);
        if (!text || std::find(spec.choices.begin(), spec.choices.end(), *text) == spec.choices.end())
            invalid(spec, "expected one of " + choicesText(spec));
        return value;
    }
    }
    return value;
}

io::Json jsonOf(const HyperparameterValue &value)
{
    return std::visit([](const auto &item) { return io::Json(item); }, value);
}

} // namespace

std::string hyperparameterTypeName(HyperparameterType type)
{
    switch (type) {
    case HyperparameterType::Integer: return "integer";
    case HyperparameterType::Real: return "real";
    case HyperparameterType::Boolean: return "boolean";
    case HyperparameterType::Choice: return "choice";
    }
    return "unknown";
}

Hyperparameters::Hyperparameters(std::vector<HyperparameterSpec> specs)
    : mSpecs(std::move(specs))
{
    for (const auto &spec : mSpecs)
        mValues.push_back(checked(spec, spec.defaultValue));
}

std::size_t Hyperparameters::indexOf(const std::string &name) const
{
    for (std::size_t i = 0; i < mSpecs.size(); ++i)
        if (mSpecs[i].name == name)
            return i;
    throw io::InputError("unknown hyperparameter " + io::quoteForMessage(name) + "; known: " + namesText());
}

bool Hyperparameters::contains(const std::string &name) const
{
    return std::any_of(mSpecs.begin(), mSpecs.end(), [&](const HyperparameterSpec &spec) { return spec.name == name; });
}

std::string Hyperparameters::namesText() const
{
    std::string names;
    for (const auto &spec : mSpecs)
        names += (names.empty() ? "" : ", ") + spec.name;
    return names;
}

const HyperparameterSpec &Hyperparameters::spec(const std::string &name) const
{
    return mSpecs[indexOf(name)];
}

void Hyperparameters::set(const std::string &name, const HyperparameterValue &value)
{
    const std::size_t index = indexOf(name);
    mValues[index] = checked(mSpecs[index], value);
}

void Hyperparameters::setFromText(const std::string &name, const std::string &text)
{
    const HyperparameterSpec &definition = spec(name);
    switch (definition.type) {
    case HyperparameterType::Integer:
    case HyperparameterType::Real: {
        double number = 0.0;
        const auto result = std::from_chars(text.data(), text.data() + text.size(), number);
        if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size())
            invalid(definition, "expected a number, not " + io::quoteForMessage(text));
        set(name, number);
        return;
    }
    case HyperparameterType::Boolean:
        if (text == "true" || text == "1" || text == "on" || text == "yes")
            set(name, true);
        else if (text == "false" || text == "0" || text == "off" || text == "no")
            set(name, false);
        else
            invalid(definition, "expected true or false, not " + io::quoteForMessage(text));
        return;
    case HyperparameterType::Choice: set(name, text); return;
    }
}

void Hyperparameters::setAssignment(const std::string &assignment)
{
    const std::size_t equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0)
        throw io::InputError(io::parameter("hyperparameter") + " expects name=value, not " +
                             io::quoteForMessage(assignment));
    setFromText(assignment.substr(0, equals), assignment.substr(equals + 1));
}

void Hyperparameters::apply(const io::Json &object, const std::string &sourceName)
{
    if (!object.is_object())
        throw io::InputError(sourceName, 0, 0, "expected a JSON object of hyperparameters");
    for (const auto &[name, value] : object.items()) {
        try {
            // Integers stay integers so that a whole number above 2^53 is not rounded on the way.
            if (value.is_boolean())
                set(name, value.get<bool>());
            else if (value.is_number_integer() && !value.is_number_unsigned())
                set(name, value.get<std::int64_t>());
            else if (value.is_number_unsigned() &&
                     value.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<std::int64_t>::max()))
                set(name, static_cast<std::int64_t>(value.get<std::uint64_t>()));
            else if (value.is_number())
                set(name, value.get<double>());
            else if (value.is_string())
                set(name, value.get<std::string>());
            else
                invalid(spec(name), "expected a number, a boolean or a string");
        } catch (const io::InputError &error) {
            throw io::InputError(sourceName, 0, 0, error.markedMessage());
        }
    }
}

std::int64_t Hyperparameters::integer(const std::string &name) const
{
    return std::get<std::int64_t>(mValues[indexOf(name)]);
}

double Hyperparameters::real(const std::string &name) const
{
    return std::get<double>(mValues[indexOf(name)]);
}

bool Hyperparameters::boolean(const std::string &name) const
{
    return std::get<bool>(mValues[indexOf(name)]);
}

const std::string &Hyperparameters::choice(const std::string &name) const
{
    return std::get<std::string>(mValues[indexOf(name)]);
}

std::string Hyperparameters::text(const std::string &name) const
{
    const HyperparameterValue &value = mValues[indexOf(name)];
    if (const auto *integer = std::get_if<std::int64_t>(&value))
        return std::to_string(*integer);
    if (const auto *real = std::get_if<double>(&value))
        return formatReal(*real);
    if (const auto *flag = std::get_if<bool>(&value))
        return *flag ? "true" : "false";
    return std::get<std::string>(value);
}

io::Json Hyperparameters::values() const
{
    io::Json json = io::Json::object();
    for (std::size_t i = 0; i < mSpecs.size(); ++i)
        json[mSpecs[i].name] = jsonOf(mValues[i]);
    return json;
}

io::Json Hyperparameters::descriptions() const
{
    io::Json json = io::Json::array();
    for (const auto &spec : mSpecs) {
        io::Json description = {
            {"name", spec.name}, {"type", hyperparameterTypeName(spec.type)}, {"default", jsonOf(spec.defaultValue)}};
        if (spec.type == HyperparameterType::Integer || spec.type == HyperparameterType::Real) {
            description["minimum"] = spec.minimum;
            description["maximum"] = spec.maximum;
        }
        if (spec.type == HyperparameterType::Choice)
            description["choices"] = spec.choices;
        description["unit"] = spec.unit;
        description["help"] = spec.help;
        json.push_back(std::move(description));
    }
    return json;
}

void Hyperparameters::writeDescriptions(io::JsonWriter &writer) const
{
    writer.value(descriptions());
}

void to_json(io::Json &json, const Hyperparameters &hyperparameters)
{
    json = hyperparameters.values();
}

} // namespace gpumem::models
