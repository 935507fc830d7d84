#pragma once

#include <string>

namespace gpumem::io {

// Builds a folder (e.g. a saved model) so that readers only ever see a complete
// one: files are written into a temporary folder beside the destination, and
// commit() renames it into place, replacing an existing folder. Destroying the
// writer without commit() removes the temporary folder. Not thread-safe.
class AtomicDirectoryWriter
{
  public:
    // Creates the temporary folder; throws InputError when the parent is not writable.
    explicit AtomicDirectoryWriter(std::string destination);
    ~AtomicDirectoryWriter();
    AtomicDirectoryWriter(const AtomicDirectoryWriter &) = delete;
    AtomicDirectoryWriter &operator=(const AtomicDirectoryWriter &) = delete;

    // The temporary folder to write into.
    const std::string &path() const { return mTemporaryPath; }
    // Returns path()/name.
    std::string filePath(const std::string &name) const { return mTemporaryPath + '/' + name; }

    // Moves the finished folder onto the destination; throws InputError when it
    // cannot (an existing destination is then left as it was).
    void commit();

  private:
    std::string mDestination;
    std::string mTemporaryPath;
    bool mCommitted = false;
};

} // namespace gpumem::io
