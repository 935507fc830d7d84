// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <exception>

namespace gpumem::data {

// Thrown by a load that its control cancelled; nothing was loaded. Part of the
// long-operation contract: whoever starts a load catches it to tell a cancel from a failure.
class LoadCancelled : public std::exception
{
  public:
    const char *what() const noexcept override { return "loading was cancelled"; }
};

} // namespace gpumem::data
