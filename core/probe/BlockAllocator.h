// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <c10/core/Allocator.h>
#include <torch/version.h>

#include <cstddef>
#include <cstring>

namespace gpumem::probe {

// A c10::Allocator whose blocks come from allocateBlock(): the one place that
// spells allocate() and copy_data() as the LibTorch it is built against declares
// them (LibTorch 2.3 made allocate() non-const and added copy_data()).
class BlockAllocator : public c10::Allocator
{
  public:
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
    c10::DataPtr allocate(std::size_t bytes) final
    {
        return allocateBlock(bytes);
    }
    void copy_data(void *destination, const void *source, std::size_t count) const final
    {
        copyBlock(destination, source, count);
    }
#else
    c10::DataPtr allocate(std::size_t bytes) const final
    {
        return allocateBlock(bytes);
    }
#endif

  protected:
    // Hands out a block of bytes; any thread.
    virtual c10::DataPtr allocateBlock(std::size_t bytes) const = 0;
    // Copies count bytes between two of its blocks (a tensor's storage cloned).
    virtual void copyBlock(void *destination, const void *source, std::size_t count) const
    {
        std::memcpy(destination, source, count);
    }
};

} // namespace gpumem::probe
