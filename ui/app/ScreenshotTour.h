// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

namespace gpumem::ui {

class MainWindow;

// A scripted walk through the pages that saves a PNG of the window at each step
// (for the documentation): loads a dataset, shows the model, trains with the
// quick preset, runs a 3-fold comparison, predicts, estimates a TorchScript
// model on the Your model page when one is given, shows the Compare page at the largest zoom
// step and the training's loss chart alone, full screen, then quits the application.
// Every step waits for the previous one's signal; nothing blocks the event loop.
class ScreenshotTour : public QObject
{
    Q_OBJECT

  public:
    // dataPath: the CSV to show (a built-in dataset by default).
    ScreenshotTour(MainWindow *window, QString directory, QString dataPath, QObject *parent = nullptr);

    // Adds the Your model page's estimate of a TorchScript file, with one
    // sample's input shape ("3,224,224"); without it the page is left out.
    void setYourModel(const QString &modelPath, const QString &inputShape);

    // Begins the walk; the application quits when it is done.
    void start();

  private:
    void save(const QString &name);
    void showModel();
    void train();
    void showRuns();
    void compare();
    void showComparison();
    void predict();
    void estimateYourModel();
    void showHelpPanel();
    void showLargeFont();
    // Shows the training's loss chart alone, full screen, saves it, then returns to zoom and quits.
    void showChartFullWindow(int zoom);

    MainWindow *mWindow;
    QString mDirectory;
    QString mDataPath;
    QString mYourModelPath;
    QString mYourModelShape;
};

} // namespace gpumem::ui
