// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpumem::ui {

// The `gpumem` command that runs what a page would run now, or why there is none
// yet: Edit ▸ Copy as command puts the line on the clipboard, so that a run set up
// in the workbench can be repeated in a script or on a cluster.
struct RunCommand
{
    QString line;    // one line a POSIX shell reads back into the command's words; empty when there is none
    QString whyNone; // a sentence for people, when line is empty
};

// A page whose run `gpumem` repeats. The window asks the page on show through this
// interface, so that it knows nothing of the page's form; a page that runs nothing
// does not implement it.
class RunCommandSource
{
  public:
    // The command of the run the page would start now, built from the configuration its
    // start() runs; an empty line (and why) while the page has nothing to run.
    virtual RunCommand runCommand() const = 0;
    // The line alone; empty when there is none.
    QString commandLine() const { return runCommand().line; }

  protected:
    // Not deleted through the interface: the page is a widget its parent owns.
    ~RunCommandSource() = default;
};

} // namespace gpumem::ui
