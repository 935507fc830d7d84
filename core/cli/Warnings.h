// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>

namespace gpumem::cli {

// Sends warnings raised while options are read (before a command has its own
// streams at hand) to err for as long as it lives; runCommandLine holds one
// around each command. Nests; the stream is per thread.
class ScopedWarningStream
{
  public:
    explicit ScopedWarningStream(std::ostream &err);
    ~ScopedWarningStream();
    ScopedWarningStream(const ScopedWarningStream &) = delete;
    ScopedWarningStream &operator=(const ScopedWarningStream &) = delete;

  private:
    std::ostream *mPrevious;
};

// Writes "warning: message" as one line to the current warning stream; without one, drops it.
void warn(const std::string &message);

} // namespace gpumem::cli
