#pragma once

#include <fstream>
#include <string>

namespace gpumem::io {

// Writes a file so that readers only ever see the old or the complete new
// content: data goes to a temporary file in the same folder, and commit()
// flushes it and renames it over the destination. Destroying the writer
// without commit() removes the temporary file and leaves the destination untouched.
// Not thread-safe; one writer per destination.
class AtomicFileWriter
{
  public:
    // Opens the temporary file; throws InputError when the folder is not writable.
    explicit AtomicFileWriter(std::string destination);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter &) = delete;
    AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

    // The stream to write the content to.
    std::ostream &stream() { return mStream; }

    // Flushes, syncs and renames the temporary file onto the destination; throws
    // InputError when any step fails (the destination then keeps its old content).
    void commit();

    const std::string &destination() const { return mDestination; }

  private:
    std::string mDestination;
    std::string mTemporaryPath;
    std::ofstream mStream;
    bool mCommitted = false;
};

// Writes content to path atomically (see AtomicFileWriter).
void writeFileAtomically(const std::string &path, const std::string &content);

} // namespace gpumem::io
