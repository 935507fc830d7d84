#pragma once

#include <QMainWindow>

namespace gpumem::ui {

// The workbench's top-level window: menus, status bar and, as pages arrive,
// the data, model, training, comparison and prediction views. Restores its
// geometry from QSettings and saves it on close.
class MainWindow : public QMainWindow
{
    Q_OBJECT

  public:
    explicit MainWindow(QWidget *parent = nullptr);

  protected:
    void closeEvent(QCloseEvent *event) override;

  private:
    void createMenus();
    void showAbout();
};

} // namespace gpumem::ui
