// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <string_view>
#include <vector>

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

// Returns a list of UTF-8 texts from core as a QStringList.
inline QStringList qtTexts(const std::vector<std::string> &texts)
{
    QStringList list;
    for (const auto &text : texts)
        list << qtText(text);
    return list;
}

} // namespace gpumem::ui
