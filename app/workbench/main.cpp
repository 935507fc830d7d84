// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/BuiltInDatasets.h"
#include "ui/app/MainWindow.h"
#include "ui/app/ScreenshotTour.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QIcon>

#include <cstring>

namespace {

struct WorkbenchOptions
{
    QCommandLineOption screenshots{QStringLiteral("screenshot-dir"),
                                   QStringLiteral("walk through the pages, save a PNG of each into DIR, quit"),
                                   QStringLiteral("DIR")};
    QCommandLineOption screenshotModel{
        QStringLiteral("screenshot-model"),
        QStringLiteral("with --screenshot-dir: also estimate this TorchScript model on the Your model page"),
        QStringLiteral("MODEL.pt")};
    QCommandLineOption screenshotShape{QStringLiteral("screenshot-input-shape"),
                                       QStringLiteral("one sample's input shape of --screenshot-model"),
                                       QStringLiteral("C,H,W"), QStringLiteral("3,224,224")};
};

void nameApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("GPU Memory Workbench"));
    QCoreApplication::setApplicationName(QStringLiteral("gpumem-workbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GPUMEM_WORKBENCH_VERSION));
}

void describe(QCommandLineParser &parser, const WorkbenchOptions &options)
{
    parser.setApplicationDescription(QStringLiteral("Predict the peak GPU memory of deep-learning jobs and compare "
                                                    "models side by side."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("a CSV file of jobs, a project (.gpumem.json) or a TorchScript model "
                                                "(.pt) to open"),
                                 QStringLiteral("[DATA.csv | PROJECT.gpumem.json | MODEL.pt]"));
    parser.addOptions({options.screenshots, options.screenshotModel, options.screenshotShape});
}

// Whether the command line only asks for text (--help, --version): that needs no
// display, and a QApplication without one aborts before it could print anything.
bool asksForTextOnly(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        for (const char *flag : {"-h", "--help", "--help-all", "-?", "-v", "--version"})
            if (std::strcmp(argv[i], flag) == 0)
                return true;
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    const WorkbenchOptions options;
    if (asksForTextOnly(argc, argv)) {
        QCoreApplication application(argc, argv);
        nameApplication();
        QCommandLineParser parser;
        describe(parser, options);
        parser.process(application); // prints and exits
        return 0;
    }

    QApplication application(argc, argv);
    nameApplication();
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Memory Workbench"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/gpumem-workbench.svg")));
    QCommandLineParser parser;
    describe(parser, options);
    parser.process(application);

    gpumem::ui::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(options.screenshots)) {
        QString data = files.value(0);
        if (data.isEmpty() && !gpumem::ui::builtInDatasets().isEmpty())
            data = gpumem::ui::builtInDatasets().front();
        auto *tour = new gpumem::ui::ScreenshotTour(&window, parser.value(options.screenshots), data, &window);
        if (parser.isSet(options.screenshotModel))
            tour->setYourModel(parser.value(options.screenshotModel), parser.value(options.screenshotShape));
        tour->start();
    } else if (!files.isEmpty()) {
        window.openFile(files.front());
    }
    return QApplication::exec();
}
