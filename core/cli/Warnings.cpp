// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/Warnings.h"

namespace gpumem::cli {

namespace {

thread_local std::ostream *currentStream = nullptr;

} // namespace

ScopedWarningStream::ScopedWarningStream(std::ostream &err)
    : mPrevious(currentStream)
{
    currentStream = &err;
}

ScopedWarningStream::~ScopedWarningStream()
{
    currentStream = mPrevious;
}

void warn(const std::string &message)
{
    if (currentStream)
        *currentStream << "warning: " << message << '\n';
}

} // namespace gpumem::cli
