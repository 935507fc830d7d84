// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/TimelineFile.h"

#include "estimate/MemoryUnits.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/NumberText.h"

#include <nlohmann/json.hpp>

namespace gpumem::estimate {

namespace {

bool endsWith(const std::string &text, const std::string &suffix)
{
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// MiB with four decimals: a step's small allocations stay visible in the timeline.
std::string preciseMibText(std::uint64_t bytes)
{
    return io::formattedNumber("%.4f", mibOf(bytes));
}

} // namespace

void checkTimelinePath(const std::string &path)
{
    if (!endsWith(path, ".csv") && !endsWith(path, ".json"))
        throw io::InputError(path, 0, 0, io::parameter("timeline") + " writes FILE.csv or FILE.json");
}

void writeTimeline(const std::string &path, std::int64_t batchSize, const std::vector<TimelinePoint> &timeline)
{
    checkTimelinePath(path);
    const bool csv = endsWith(path, ".csv");
    io::AtomicFileWriter writer(path);
    std::ostream &out = writer.stream();
    if (csv) {
        out << "event,phase,category,allocated_mib,reserved_mib\n";
        for (const auto &point : timeline)
            out << point.eventIndex << ',' << phaseName(point.phase) << ',' << categoryName(point.category) << ','
                << preciseMibText(point.allocatedBytes) << ',' << preciseMibText(point.reservedBytes) << '\n';
    } else {
        nlohmann::ordered_json events = nlohmann::ordered_json::array();
        for (const auto &point : timeline)
            events.push_back({{"event", point.eventIndex},
                              {"phase", phaseName(point.phase)},
                              {"category", categoryName(point.category)},
                              {"allocated_mib", mibOf(point.allocatedBytes)},
                              {"reserved_mib", mibOf(point.reservedBytes)}});
        nlohmann::ordered_json document = {{"batch_size", batchSize}, {"events", std::move(events)}};
        out << document.dump() << '\n';
    }
    writer.commit();
}

} // namespace gpumem::estimate
