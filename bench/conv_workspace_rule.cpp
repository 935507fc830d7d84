// SPDX-License-Identifier: GPL-3.0-or-later
// Sets the convolution workspace rule (cudnnConvolutionWorkspaces) against the workspaces
// an H200 allocated, recorded by bench/cuda_comparison.py tables:
//   gpumem_conv_workspace_rule datasets/h200_conv_workspaces.csv
// For the forward pass (the block it allocated and freed) and the backward pass (its
// largest such block, the filter gradient's), per kind of convolution: how many calls the
// rule gives within 1 MiB, the median and the largest miss, and the calls missed by more
// than 8 MiB.

#include "data/CellText.h"
#include "data/CsvReader.h"
#include "estimate/ConvolutionWorkspace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gpumem;

namespace {

constexpr double kMib = 1024.0 * 1024.0;

std::vector<std::string> splitOn(const std::string &text, char separator)
{
    std::vector<std::string> parts;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, separator))
        parts.push_back(part);
    return parts;
}

// "3x3" as {3, 3}; nothing for text that is not such a list of positive whole numbers.
std::vector<std::int64_t> extents(const std::string &text)
{
    std::vector<std::int64_t> values;
    for (const std::string &part : splitOn(text, 'x')) {
        if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string::npos)
            return {};
        values.push_back(std::stoll(part));
        if (values.back() == 0)
            return {};
    }
    return values;
}

struct Measured
{
    std::string label; // model, batch, channels, kernel, stride
    std::string kind;  // what the rule tells apart
    estimate::ConvolutionCall call;
    double forwardMib = 0.0;
    double backwardMib = 0.0; // the largest block of the backward pass
};

std::vector<Measured> readCalls(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    data::CsvReader reader(in, path, ',');
    std::vector<std::string> fields;
    if (!reader.readRecord(fields))
        throw std::runtime_error(path + ": empty");
    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < fields.size(); ++i)
        column[fields[i]] = i;
    for (const char *name : {"model", "batch_size", "in_channels", "out_channels", "kernel", "stride", "groups",
                             "input_mib", "output_mib", "forward_workspace_mib", "backward_workspace_mib"})
        if (column.count(name) == 0)
            throw std::runtime_error(path + ": no column " + name);
    std::vector<Measured> calls;
    std::string scratch;
    while (reader.readRecord(fields)) {
        const std::string where = path + ":" + std::to_string(reader.recordLine());
        const auto field = [&](const char *name) -> const std::string & {
            const std::size_t at = column[name];
            if (at >= fields.size())
                throw std::runtime_error(where + ": too few fields");
            return fields[at];
        };
        // A number from 0 to a trillion in the named column (every column read here is a
        // size or a count), or an error that names the cell.
        const auto number = [&](const char *name) {
            double value = 0.0;
            if (data::classifyCell(field(name), value, false, scratch) != data::CellKind::Number || value < 0.0 ||
                value > 1e12)
                throw std::runtime_error(where + ": " + name + " is not a size: '" + field(name) + "'");
            return value;
        };
        const auto whole = [&](const char *name) {
            const double value = number(name);
            if (value != std::floor(value))
                throw std::runtime_error(where + ": " + name + " is not a whole count: '" + field(name) + "'");
            return static_cast<std::int64_t>(value);
        };
        Measured m;
        estimate::ConvolutionCall &call = m.call;
        call.batchSize = whole("batch_size");
        call.inputChannels = whole("in_channels");
        call.groups = whole("groups");
        if (call.groups <= 0)
            throw std::runtime_error(where + ": groups must be positive");
        call.kernel = extents(field("kernel"));
        call.stride = extents(field("stride"));
        if (call.kernel.empty() || call.stride.size() != call.kernel.size())
            throw std::runtime_error(where + ": kernel and stride must be alike lists such as 3x3");
        const std::int64_t outputChannels = whole("out_channels");
        std::int64_t filterElements = outputChannels * call.inputChannels / call.groups;
        for (const std::int64_t extent : call.kernel)
            filterElements *= extent;
        // The file gives the maps' sizes in MiB to 3 decimals; whole float32 elements are exact enough.
        call.inputBytes = static_cast<std::uint64_t>(std::llround(number("input_mib") * kMib));
        call.outputBytes = static_cast<std::uint64_t>(std::llround(number("output_mib") * kMib));
        call.filterBytes = static_cast<std::uint64_t>(filterElements) * 4;
        m.forwardMib = number("forward_workspace_mib");
        m.backwardMib = number("backward_workspace_mib");
        m.kind = estimate::convolutionKindName(estimate::convolutionKind(call));
        m.label = field("model") + " batch " + field("batch_size") + " " + field("in_channels") + "->" +
                  field("out_channels") + " " + field("kernel") + " stride " + field("stride");
        calls.push_back(std::move(m));
    }
    return calls;
}

void report(const char *pass, const std::vector<Measured> &calls, double (*ruleMib)(const estimate::ConvolutionCall &),
            double Measured::*measuredMib)
{
    std::map<std::string, std::vector<double>> missesByKind; // rule − measured, MiB
    std::vector<std::pair<double, std::string>> large;
    for (const Measured &m : calls) {
        const double miss = ruleMib(m.call) - m.*measuredMib;
        missesByKind[m.kind].push_back(miss);
        missesByKind["all"].push_back(miss);
        if (std::abs(miss) > 8.0)
            large.emplace_back(miss, m.label);
    }
    std::printf("%s\n  %-16s %6s %14s %12s %12s\n", pass, "kind", "calls", "within 1 MiB", "median miss",
                "largest miss");
    for (auto &[kind, misses] : missesByKind) {
        std::vector<double> sizes;
        for (const double miss : misses)
            sizes.push_back(std::abs(miss));
        std::sort(sizes.begin(), sizes.end());
        const auto within = std::count_if(sizes.begin(), sizes.end(), [](double s) { return s < 1.0; });
        const double largest = *std::max_element(misses.begin(), misses.end(),
                                                 [](double a, double b) { return std::abs(a) < std::abs(b); });
        std::printf("  %-16s %6zu %14td %12.3f %+12.3f\n", kind.c_str(), misses.size(), within, sizes[sizes.size() / 2],
                    largest);
    }
    std::sort(large.begin(), large.end(),
              [](const auto &a, const auto &b) { return std::abs(a.first) > std::abs(b.first); });
    for (const auto &[miss, label] : large)
        std::printf("  %+10.3f MiB  %s\n", miss, label.c_str());
}

double forwardMib(const estimate::ConvolutionCall &call)
{
    return static_cast<double>(estimate::cudnnConvolutionWorkspaces(call).forward) / kMib;
}

// The backward pass's largest block: the filter gradient's, or the input gradient's where larger.
double backwardMib(const estimate::ConvolutionCall &call)
{
    const estimate::ConvolutionWorkspaces workspaces = estimate::cudnnConvolutionWorkspaces(call);
    return static_cast<double>(std::max(workspaces.backwardData, workspaces.backwardFilter)) / kMib;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s h200_conv_workspaces.csv\n", argv[0]);
        return 1;
    }
    try {
        const std::vector<Measured> calls = readCalls(argv[1]);
        report("forward workspace (MiB, rule - GPU)", calls, &forwardMib, &Measured::forwardMib);
        report("backward, largest workspace (MiB, rule - GPU)", calls, &backwardMib, &Measured::backwardMib);
    } catch (const std::exception &error) {
        std::fprintf(stderr, "error: %s\n", error.what());
        return 1;
    }
    return 0;
}
