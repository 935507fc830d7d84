// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes to the reader of a sweep's JSON Lines file (what `gpumem sweep --merge`
// reads from every part): the first line naming the sweep, then each run's line and record. A
// mutated line almost never matches its SHA-256, so each line that is a JSON object is signed
// again first, as the sweep would have written it, and the checks behind the digest are reached.
// Only io::InputError may come out.
#include "io/InputError.h"
#include "io/Json.h"
#include "io/Sha256.h"
#include "runs/SweepRecords.h"

#include <cstdint>
#include <string>

namespace {

using Json = nlohmann::ordered_json;

// The line with its "digest" member made to match the rest, or the line unchanged.
std::string signedLine(const std::string &line)
{
    try {
        Json json = gpumem::io::parseJson(line, "fuzz");
        if (!json.is_object())
            return line;
        json.erase("digest");
        const auto text = [](const Json &value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); };
        json["digest"] = gpumem::io::sha256Hex(text(json));
        return text(json);
    } catch (const gpumem::io::InputError &) {
        return line;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    std::string content;
    std::size_t start = 0;
    while (start < input.size()) {
        const std::size_t newline = input.find('\n', start);
        const std::size_t end = newline == std::string::npos ? input.size() : newline;
        content += signedLine(input.substr(start, end - start));
        if (newline != std::string::npos)
            content += '\n';
        start = end + 1;
    }
    try {
        gpumem::runs::parseSweepFile(content, "fuzz.jsonl");
    } catch (const gpumem::io::InputError &) {
    }
    return 0;
}
