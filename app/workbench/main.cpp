// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/BuiltInDatasets.h"
#include "ui/MainWindow.h"
#include "ui/ScreenshotTour.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

int main(int argc, char **argv)
{
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("GPU Memory Workbench"));
    QApplication::setApplicationName(QStringLiteral("gpumem-workbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Memory Workbench"));
    QApplication::setApplicationVersion(QStringLiteral(GPUMEM_WORKBENCH_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/gpumem-workbench.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Predict the peak GPU memory of deep-learning jobs and compare "
                                                    "models side by side."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("a CSV file of jobs, a project (.gpumem.json) or a TorchScript model "
                                                "(.pt) to open"),
                                 QStringLiteral("[DATA.csv | PROJECT.gpumem.json | MODEL.pt]"));
    const QCommandLineOption screenshots(QStringLiteral("screenshot-dir"),
                                         QStringLiteral("walk through the pages, save a PNG of each into DIR, quit"),
                                         QStringLiteral("DIR"));
    parser.addOption(screenshots);
    const QCommandLineOption screenshotModel(
        QStringLiteral("screenshot-model"),
        QStringLiteral("with --screenshot-dir: also estimate this TorchScript model on the Your model page"),
        QStringLiteral("MODEL.pt"));
    parser.addOption(screenshotModel);
    const QCommandLineOption screenshotShape(QStringLiteral("screenshot-input-shape"),
                                             QStringLiteral("one sample's input shape of --screenshot-model"),
                                             QStringLiteral("C,H,W"), QStringLiteral("3,224,224"));
    parser.addOption(screenshotShape);
    parser.process(application);

    gpumem::ui::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(screenshots)) {
        QString data = files.value(0);
        if (data.isEmpty() && !gpumem::ui::builtInDatasets().isEmpty())
            data = gpumem::ui::builtInDatasets().front();
        auto *tour = new gpumem::ui::ScreenshotTour(&window, parser.value(screenshots), data, &window);
        if (parser.isSet(screenshotModel))
            tour->setYourModel(parser.value(screenshotModel), parser.value(screenshotShape));
        tour->start();
    } else if (!files.isEmpty()) {
        window.openFile(files.front());
    }
    return QApplication::exec();
}
