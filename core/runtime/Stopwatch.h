// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>

namespace gpumem::runtime {

// Seconds of wall time since it was started, on the steady clock, so that a
// change of the system time never makes a fit, a fold or a probe run backwards.
// Every duration the reports show is measured with one.
class Stopwatch
{
  public:
    Stopwatch()
        : mStart(Clock::now())
    {
    }

    double seconds() const { return std::chrono::duration<double>(Clock::now() - mStart).count(); }

  private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point mStart;
};

} // namespace gpumem::runtime
