// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/ShortNames.h"

#include <map>
#include <set>

namespace gpumem::report {

namespace {

// The byte offset at which each code point of text starts, plus text.size() at the end.
std::vector<std::size_t> codePointStarts(const std::string &text)
{
    std::vector<std::size_t> starts;
    for (std::size_t byte = 0; byte < text.size(); ++byte)
        if ((static_cast<unsigned char>(text[byte]) & 0xC0) != 0x80) // not a continuation byte
            starts.push_back(byte);
    starts.push_back(text.size());
    return starts;
}

} // namespace

std::string elidedInTheMiddle(const std::string &name, std::size_t maxCharacters)
{
    const std::vector<std::size_t> starts = codePointStarts(name);
    const std::size_t length = starts.size() - 1;
    if (length <= maxCharacters || maxCharacters < 3)
        return name;
    // The ellipsis takes one place; the end gets the smaller half, enough for "(line 2329)".
    const std::size_t kept = maxCharacters - 1;
    const std::size_t tail = kept / 2;
    const std::size_t head = kept - tail;
    return name.substr(0, starts[head]) + elision + name.substr(starts[length - tail]);
}

std::vector<std::string> shortenedNames(const std::vector<std::string> &names, std::size_t maxCharacters)
{
    std::vector<std::size_t> budget(names.size(), maxCharacters);
    std::vector<std::string> shortened(names.size());
    // Each round widens the names that still collide; a name at its full length never
    // collides with a different name, so the rounds end.
    for (bool collided = true; collided;) {
        collided = false;
        std::map<std::string, std::set<std::string>> sources; // shortened text → the names it stands for
        for (std::size_t i = 0; i < names.size(); ++i) {
            shortened[i] = elidedInTheMiddle(names[i], budget[i]);
            sources[shortened[i]].insert(names[i]);
        }
        for (std::size_t i = 0; i < names.size(); ++i)
            if (sources[shortened[i]].size() > 1 && shortened[i] != names[i]) {
                budget[i] += 4;
                collided = true;
            }
    }
    return shortened;
}

} // namespace gpumem::report
