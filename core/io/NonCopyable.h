// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace gpumem::io {

// A base for a class whose object owns what no copy may share (a file being
// written, an installed observer or allocator, a process-wide setting held for a
// scope): its copies, and so its moves, are deleted.
class NonCopyable
{
  public:
    NonCopyable(const NonCopyable &) = delete;
    NonCopyable &operator=(const NonCopyable &) = delete;

  protected:
    NonCopyable() = default;
    ~NonCopyable() = default;
};

} // namespace gpumem::io
