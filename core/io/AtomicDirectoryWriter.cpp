#include "io/AtomicDirectoryWriter.h"

#include "io/InputError.h"

#include <filesystem>
#include <random>

namespace gpumem::io {

namespace fs = std::filesystem;

namespace {

std::string siblingPath(const std::string &destination, const char *kind)
{
    std::random_device device;
    return destination + kind + std::to_string(device() % 100000000u);
}

} // namespace

AtomicDirectoryWriter::AtomicDirectoryWriter(std::string destination)
    : mDestination(std::move(destination))
{
    while (!mDestination.empty() && mDestination.back() == '/' && mDestination.size() > 1)
        mDestination.pop_back();
    mTemporaryPath = siblingPath(mDestination, ".tmp-");
    std::error_code error;
    if (!fs::create_directory(mTemporaryPath, error))
        throw InputError(mDestination, 0, 0, "cannot create a folder beside it: " + error.message());
}

AtomicDirectoryWriter::~AtomicDirectoryWriter()
{
    if (!mCommitted) {
        std::error_code ignored;
        fs::remove_all(mTemporaryPath, ignored);
    }
}

void AtomicDirectoryWriter::commit()
{
    std::error_code error;
    if (fs::exists(mDestination, error) && !fs::is_directory(mDestination, error))
        throw InputError(mDestination, 0, 0, "exists and is not a folder");
    // A folder cannot be renamed over a non-empty one: move the old one aside first,
    // and back again if the new one cannot take its place.
    std::string previous;
    if (fs::exists(mDestination, error)) {
        previous = siblingPath(mDestination, ".old-");
        fs::rename(mDestination, previous, error);
        if (error)
            throw InputError(mDestination, 0, 0, "cannot replace: " + error.message());
    }
    fs::rename(mTemporaryPath, mDestination, error);
    if (error) {
        std::error_code ignored;
        if (!previous.empty())
            fs::rename(previous, mDestination, ignored);
        throw InputError(mDestination, 0, 0, "cannot write: " + error.message());
    }
    mCommitted = true;
    if (!previous.empty())
        fs::remove_all(previous, error);
}

} // namespace gpumem::io
