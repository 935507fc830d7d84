// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/TimelineFile.h"

#include "io/AtomicFileWriter.h"
#include "io/InputError.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace gpumem::estimate {

namespace {

constexpr double kMib = 1024.0 * 1024.0;

bool endsWith(const std::string &text, const std::string &suffix)
{
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string mibText(std::uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", static_cast<double>(bytes) / kMib);
    return text;
}

} // namespace

void writeTimeline(const std::string &path, std::int64_t batchSize, const std::vector<TimelinePoint> &timeline)
{
    const bool csv = endsWith(path, ".csv");
    if (!csv && !endsWith(path, ".json"))
        throw io::InputError(path, 0, 0, "--timeline writes FILE.csv or FILE.json");
    io::AtomicFileWriter writer(path);
    std::ostream &out = writer.stream();
    if (csv) {
        out << "event,phase,category,allocated_mib,reserved_mib\n";
        for (const auto &point : timeline)
            out << point.eventIndex << ',' << phaseName(point.phase) << ',' << categoryName(point.category) << ','
                << mibText(point.allocatedBytes) << ',' << mibText(point.reservedBytes) << '\n';
    } else {
        nlohmann::ordered_json events = nlohmann::ordered_json::array();
        for (const auto &point : timeline)
            events.push_back({{"event", point.eventIndex},
                              {"phase", phaseName(point.phase)},
                              {"category", categoryName(point.category)},
                              {"allocated_mib", static_cast<double>(point.allocatedBytes) / kMib},
                              {"reserved_mib", static_cast<double>(point.reservedBytes) / kMib}});
        nlohmann::ordered_json document = {{"batch_size", batchSize}, {"events", std::move(events)}};
        out << document.dump() << '\n';
    }
    writer.commit();
}

} // namespace gpumem::estimate
