// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::report {

// The marker that stands for the characters a shortened name leaves out.
constexpr const char *elision = "…";

// Returns name cut to at most maxCharacters code points (UTF-8) by leaving out its
// middle, marked with an ellipsis: the start says what kind of job it is and the end
// (a job's "(line 2329)") which one. Names that fit come back unchanged.
std::string elidedInTheMiddle(const std::string &name, std::size_t maxCharacters);

// Returns names each elided in the middle to at most maxCharacters code points, where
// that keeps distinct names distinct; names that would collide keep more of themselves
// (up to their whole length) until they differ. Equal names stay equal.
std::vector<std::string> shortenedNames(const std::vector<std::string> &names, std::size_t maxCharacters);

} // namespace gpumem::report
