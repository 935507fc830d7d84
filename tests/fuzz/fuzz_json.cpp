// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes to the JSON reader and writes what it accepts back out.
// Only io::InputError may come out.
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonWriter.h"

#include <cstdint>
#include <sstream>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    try {
        const auto value = gpumem::io::parseJson(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
        std::ostringstream out;
        gpumem::io::JsonWriter writer(out, 0);
        writer.value(value);
    } catch (const gpumem::io::InputError &) {
    }
    return 0;
}
