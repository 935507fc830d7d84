#pragma once

#include <QString>

#include <string>
#include <string_view>

namespace gpumem::ui {

// Returns UTF-8 text from core as a QString.
inline QString qtText(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// Returns a QString as the UTF-8 std::string core expects.
inline std::string coreText(const QString &text)
{
    return text.toStdString();
}

} // namespace gpumem::ui
