// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace gpumem::io {

// The most a JSON file we read (model.json, --config, a project) may hold.
constexpr std::uint64_t maxJsonFileBytes = 64ull << 20;

// Reads the whole of path into memory when it is a regular file of at most
// maxBytes: a folder, a device such as /dev/zero, a FIFO or a larger file is
// refused with io::InputError naming path, before anything is read. The check
// is made on the opened descriptor, so the file cannot be swapped in between.
std::string readRegularFile(const std::string &path, std::uint64_t maxBytes);

} // namespace gpumem::io
