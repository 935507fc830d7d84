// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/Json.h"

#include <ostream>
#include <string>

namespace gpumem::io {

// How writeJsonDocument() lays a document out.
struct JsonDocumentOptions
{
    int indent = 2; // spaces per level; 0 writes the whole document on one line (JSON Lines)
    // A non-finite number throws io::InputError instead of becoming null: for
    // files that must never hold one, such as a model folder's model.json.
    bool refuseNonFiniteNumbers = false;
};

// Writes document as JSON text to out: the one place where the workbench's
// documents become text. The layout is JsonWriter's (one member or item a line,
// doubles in their shortest round-trip form, invalid UTF-8 replaced by U+FFFD,
// non-finite numbers as null unless refused); an indented top-level object ends
// with a newline, a one-line document does not.
void writeJsonDocument(std::ostream &out, const Json &document, const JsonDocumentOptions &options = {});

// Returns the text writeJsonDocument() writes.
std::string jsonDocumentText(const Json &document, const JsonDocumentOptions &options = {});

} // namespace gpumem::io
