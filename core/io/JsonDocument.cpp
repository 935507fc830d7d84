// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/JsonDocument.h"

#include "io/JsonWriter.h"

#include <sstream>

namespace gpumem::io {

void writeJsonDocument(std::ostream &out, const Json &document, const JsonDocumentOptions &options)
{
    JsonWriter writer(out, options.indent);
    if (options.refuseNonFiniteNumbers)
        writer.refuseNonFiniteNumbers();
    writer.value(document);
}

std::string jsonDocumentText(const Json &document, const JsonDocumentOptions &options)
{
    std::ostringstream text;
    writeJsonDocument(text, document, options);
    return text.str();
}

} // namespace gpumem::io
