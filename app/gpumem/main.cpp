// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/CommandLine.h"
#include "io/TemporaryPaths.h"
#ifdef GPUMEM_WITH_PDF_REPORTS
#include "ui/pdfreport/PdfReport.h"
#endif

#include <iostream>

int main(int argc, char **argv)
{
    std::ios::sync_with_stdio(false);
    // Ctrl-C or a scheduler's SIGTERM during a save must not leave half-written files behind.
    gpumem::io::removeTemporaryPathsOnSignals();
#ifdef GPUMEM_WITH_PDF_REPORTS
    gpumem::pdfreport::enablePdfReports();
#endif
    return gpumem::cli::runCommandLine({argv + 1, argv + argc}, std::cout, std::cerr);
}
