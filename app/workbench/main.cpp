#include "ui/MainWindow.h"

#include <QApplication>
#include <QIcon>

int main(int argc, char **argv)
{
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("GPU Memory Workbench"));
    QApplication::setApplicationName(QStringLiteral("gpumem-workbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Memory Workbench"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/gpumem-workbench.svg")));
    gpumem::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
