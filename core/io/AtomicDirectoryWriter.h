// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"

#include <memory>
#include <string>
#include <vector>

namespace gpumem::io {

class TemporaryPath;

// Builds a folder (e.g. a saved model) so that readers only ever see a complete
// one: files are written into a temporary folder beside the destination, and
// commit() renames it into place. An existing destination is replaced only when
// it is empty or a model folder this program wrote (see
// resolveModelFolderDestination); anything else of the user's is refused, both
// when the writer is created and when it commits. Destroying the writer without
// commit(), a failed commit() and a signal (see removeTemporaryPathsOnSignals)
// all remove the temporary folder; one left by a writer that was killed is
// removed by the next writer of the same destination (see
// removeStaleTemporarySiblings). Not thread-safe.
class AtomicDirectoryWriter : io::NonCopyable
{
  public:
    // Checks the destination and creates the temporary folder; throws InputError
    // when the destination may not be replaced or its parent is not writable.
    explicit AtomicDirectoryWriter(std::string destination);
    ~AtomicDirectoryWriter();

    // The temporary folder to write into.
    const std::string &path() const { return mTemporaryPath; }
    // Returns path()/name, and remembers that file so that a signal removes it by
    // name. Files written under path() directly are removed and synced as well.
    std::string filePath(const std::string &name) const;

    // Syncs every file, checks the destination again and moves the finished folder
    // onto it; throws InputError naming the destination when it cannot (an
    // existing destination is then left as it was, and the temporary folder removed).
    void commit();

  private:
    void discardTemporaryFolder();

    std::string mDestination; // as given, for messages
    std::string mTemporaryPath;
    std::unique_ptr<TemporaryPath> mRegistration;
    // filePath() is a query for the caller, but its registration is bookkeeping of the writer.
    mutable std::vector<std::string> mFileNames;
    mutable std::vector<std::unique_ptr<TemporaryPath>> mFileRegistrations;
    bool mCommitted = false;
};

} // namespace gpumem::io
