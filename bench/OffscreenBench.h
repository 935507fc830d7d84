// SPDX-License-Identifier: GPL-3.0-or-later
// The start every workbench benchmark shares: check the arguments, then choose the offscreen
// platform, which must happen before the QApplication exists, so that a benchmark runs on a
// machine with no display and its timings do not depend on a window system.
#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <cstdio>

namespace gpumem::bench {

// Returns false, after printing the usage line, unless there are between fewest and most
// arguments after the program's name; otherwise selects the offscreen platform.
inline bool startOffscreen(int argc, char **argv, int fewest, int most, const char *usage)
{
    const int arguments = argc - 1;
    if (arguments < fewest || arguments > most) {
        std::fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        return false;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    return true;
}

} // namespace gpumem::bench
