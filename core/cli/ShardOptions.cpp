// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/ShardOptions.h"

#include "io/InputError.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace gpumem::cli {

namespace {

// One side of I/N: a decimal whole number and nothing else.
bool readCount(const std::string &text, std::size_t &value)
{
    std::uint64_t number = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), number);
    value = static_cast<std::size_t>(number);
    return !text.empty() && result.ec == std::errc() && result.ptr == text.data() + text.size();
}

} // namespace

Shard parseShard(const std::string &text)
{
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos)
        throw io::InputError("--shard takes I/N (slice I of N, counted from 0), not " + io::quoteForMessage(text));
    Shard shard;
    if (!readCount(text.substr(0, slash), shard.index) || !readCount(text.substr(slash + 1), shard.count) ||
        shard.count == 0)
        throw io::InputError("--shard takes I/N with whole numbers I and N > 0, not " + io::quoteForMessage(text));
    if (shard.index >= shard.count)
        throw io::InputError("--shard " + text + ": I counts from 0 and must be below N");
    return shard;
}

std::vector<std::string> takeMergeFiles(std::vector<std::string> &arguments)
{
    const auto merge = std::find(arguments.begin(), arguments.end(), "--merge");
    if (merge == arguments.end())
        return {};
    auto end = merge + 1;
    while (end != arguments.end() && end->rfind("--", 0) != 0)
        ++end;
    std::vector<std::string> files(merge + 1, end);
    if (files.empty())
        throw io::InputError("--merge needs the files to join, e.g. --merge part0 part1 --out all");
    arguments.erase(merge, end);
    return files;
}

} // namespace gpumem::cli
