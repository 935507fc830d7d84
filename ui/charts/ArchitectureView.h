// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace gpumem::ui {

// One block of the network as the view draws it (copied from core's ArchitectureBlock).
struct ArchitectureBox
{
    QString name;
    QString detail;
    QString outputShape;
    std::int64_t parameters = 0;
};

// Draws the network as a top-to-bottom pipeline of boxes (token embedding →
// BiGRU → Transformer encoder → pooling → head), each with its sizes, output
// tensor shape and parameter count, and the total below. Shows a message
// instead when the sizes are invalid. GUI thread only.
class ArchitectureView : public QWidget
{
    Q_OBJECT

  public:
    explicit ArchitectureView(QWidget *parent = nullptr);

    void setBlocks(const std::vector<ArchitectureBox> &blocks, const QString &caption);
    void setMessage(const QString &message);
    const std::vector<ArchitectureBox> &blocks() const { return mBlocks; }
    std::int64_t totalParameters() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  protected:
    void paintEvent(QPaintEvent *event) override;

  private:
    std::vector<ArchitectureBox> mBlocks;
    QString mCaption;
    QString mMessage;
};

} // namespace gpumem::ui
