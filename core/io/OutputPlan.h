// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace gpumem::io {

// Collects what a command reads and writes, and checks before the long work
// starts that no output destroys data: no output is one of the inputs or lies
// inside an input folder, no output folder holds an input, no two outputs share
// a path (devices such as /dev/null excepted), every output file can be written
// (see resolveFileDestination) and every output folder may be replaced (see
// resolveModelFolderDestination). Paths are compared by identity, so "./d.csv",
// "d.csv" and a symlink to it are one file.
class OutputPlan
{
  public:
    // Adds a file or folder the command reads; label names it in messages (e.g. "DATA.csv").
    void addInput(const std::string &path, const std::string &label);
    // Adds a file the command writes; label names it in messages (e.g. "--report").
    void addOutputFile(const std::string &path, const std::string &label);
    // Adds a model folder the command writes.
    void addOutputFolder(const std::string &path, const std::string &label);

    // Throws InputError naming the offending output when the plan would destroy
    // data or cannot be carried out.
    void check() const;

  private:
    struct Entry
    {
        std::string path;
        std::string label;
        bool folder;
    };
    std::vector<Entry> mInputs;
    std::vector<Entry> mOutputs;
};

} // namespace gpumem::io
