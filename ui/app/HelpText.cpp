// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/HelpText.h"

#include "report/SignificanceLegend.h"

#include <QObject>

namespace gpumem::ui {

QString pageHelp(int page)
{
    switch (page) {
    case 0:
        return QObject::tr(
            "<h2>Data</h2>"
            "<p>Each row of the CSV file is one measured deep-learning job: its configuration (batch size, "
            "layers, optimizer, …) and the <b>peak GPU memory</b> it needed.</p>"
            "<ul><li><b>Open</b> a file with Ctrl+O, drop it on the window, or pick a built-in dataset from "
            "File ▸ Built-in datasets.</li>"
            "<li>The <b>Columns</b> list shows the type inferred from every cell. Choose each column's "
            "<b>role</b>: the <i>target</i> to predict (numeric), <i>features</i> (inputs), the <i>sequence</i> "
            "column holding the layer list, or <i>ignored</i>. A column with one value in every row starts "
            "ignored, since no model can learn from it; the line above the table names such columns. Select several "
            "columns (Shift/Ctrl) to give them a role at once, in one of their role boxes or with a right-click "
            "(<i>Set role</i>).</li>"
            "<li>Columns that look measured by the same run as the target (utilisation, SM activity, another "
            "memory figure) are asked about in an amber bar: as features they hand a model the answer, and no user "
            "knows them before running the job, so <b>Ignore them</b> unless a model is meant to see them.</li>"
            "<li>Below the selected column's statistics, <b>Against target</b> plots that column against the "
            "target (categories as strips; at most 3,000 rows, drawn at random) and <b>Correlations</b> lists each "
            "numeric feature's Pearson and Spearman correlation with the target, strongest first.</li>"
            "<li>Red cells are missing or invalid. <b>Bad cells</b> decides whether training stops at them "
            "(like <code>gpumem</code>) or drops those rows.</li>"
            "<li>A file that cannot be read shows one line naming file:line:column and the reason.</li>"
            "<li>Ctrl+C copies the selected cells as tab-separated text.</li></ul>");
    case 1:
        return QObject::tr(
            "<h2>Model</h2>"
            "<p>The form lists every hyperparameter of the BiGRU-optimised Transformer; hover over a name for "
            "what it does, its range and default. Values outside the range cannot be entered.</p>"
            "<ul><li><b>Presets</b>: <i>default</i> (accurate, a few minutes), <i>quick</i> "
            "(under a minute; the demo's), <i>fast</i> (seconds, smaller), <i>gpu</i> (larger). Save "
            "your own as JSON and use it with <code>gpumem train --config</code>.</li>"
            "<li>The <b>architecture</b> on the right is what the values build for the loaded data: tokens are "
            "embedded, read in both directions by the BiGRU, related to each other by the Transformer encoder, "
            "pooled into one vector, and the head predicts the memory. Each box shows its output tensor shape "
            "and parameter count.</li></ul>");
    case 2:
        return QObject::tr(
            "<h2>Training</h2>"
            "<p><b>Start</b> (F5) trains on the loaded data with the model page's values; <b>Pause</b>, "
            "<b>Resume</b> and <b>Stop</b> act after the current batch.</p>"
            "<ul><li>The upper chart says how far off the network is, in MiB: black dots are the RMSE of the "
            "training rows after each epoch, red diamonds that of the validation rows held back: when red rises "
            "while black falls, the model starts to overfit, and the best epoch is the lowest red point. "
            "The quick, fast and gpu presets hold 10–15% of the rows back; the default preset trains on every "
            "row and draws black only (set validation_fraction on the model page above 0 for red).</li>"
            "<li>The lower chart is what the optimiser sees: each batch's loss on the model's scaled target "
            "(faint, with its smoothed trend bold; slider) and, on the right axis from 0, the learning rate the "
            "schedule sets.</li>"
            "<li>Both loss axes are logarithmic, where late, small gains stay visible; untick Log scale for "
            "linear ones. Wheel zooms, drag pans, double-click resets; right-click a chart to save it or "
            "export its curves as CSV.</li>"
            "<li>F11 over a chart shows it alone, full screen (Esc returns); View ▸ Zoom in (Ctrl++) enlarges "
            "text and lines.</li></ul>");
    case 3:
        return QObject::tr(
                   "<h2>Compare</h2>"
                   "<p>Fits every chosen model on the <b>same</b> folds (or hold-out split) and scores each on rows it "
                   "did not see.</p>"
                   "<ul><li><b>MSE, RMSE, MAE</b> are errors in MiB (lower is better); <b>R²</b> is the share of "
                   "variance explained (higher is better); the <b>under-prediction rate</b> is the share of jobs "
                   "predicted below their real need — each would run out of memory.</li>"
                   "<li>Error bars show the spread over folds. In the table the best value of each metric is "
                   "highlighted; the p column tests each model's RMSE against the best one's (%1), and marks "
                   "it %2.</li>"
                   "<li>In the scatter plots points below the diagonal are under-predicted; dashed lines mark common "
                   "GPU capacities.</li>"
                   "<li>Click a point of a scatter plot: its job's inputs, actual memory and every model's prediction "
                   "show below the charts.</li>"
                   "<li><b>Importance</b>: how much each model's RMSE grows when one input is shuffled among the test "
                   "jobs — the inputs the model relies on. <b>Partial dependence</b>: each model's mean prediction as "
                   "one input (say the batch size) is set to values past the shaded range of the data, where the "
                   "models extrapolate.</li>"
                   "<li>Right-click a chart to save it as PNG or SVG; File ▸ Export writes the whole comparison as "
                   "PDF or HTML.</li>"
                   "<li>Double-click a chart (or press F11 over it) to show it alone, full screen, for the back of a "
                   "room; Esc, F11 or another double-click returns. View ▸ Zoom in (Ctrl++) enlarges every text and "
                   "line.</li></ul>")
            .arg(QString::fromStdString(report::significanceTestRule()).toHtmlEscaped(),
                 QString::fromStdString(report::significanceMarksLegend()).toHtmlEscaped());
    case 4:
        return QObject::tr(
            "<h2>Predict</h2>"
            "<p>Load a model folder saved by the Training page or <code>gpumem train</code>, use the model "
            "just trained, or pick a run's model under <i>Model of a run…</i> (a reopened project's saved runs "
            "included). Enter one job's values — the prediction updates as you type, e.g. while you change "
            "the batch size — or predict a whole CSV file and save the result with the columns "
            "<code>prediction</code>, <code>actual</code> and <code>error</code>, like <code>gpumem "
            "predict</code>.</p>");
    case 5:
        return QObject::tr(
            "<h2>Runs</h2>"
            "<p>Every training of this session (and of the project file) is kept here, like TensorBoard's runs: "
            "its hyperparameters, curves, metrics, duration and how it ended.</p>"
            "<ul><li>Click a column header to sort; the best run per metric is highlighted (lowest error, highest "
            "R²).</li>"
            "<li>Select runs (Ctrl or Shift for several) to overlay their RMSE curves in MiB, each in its own "
            "colour; dashed lines are the validation RMSE. Compare runs of one data file (the Data column): a "
            "note warns when the selected runs trained on different files.</li>"
            "<li><b>Sweep…</b> trains one run per combination of values (or N random ones) in the background with "
            "the Training page's thread setting; each run holds out a share of rows for its validation RMSE, "
            "which the right-hand chart relates to the swept hyperparameter; <i>Parallel coordinates</i> draws "
            "every run as a line through its values and its RMSE. <code>gpumem sweep</code> does the same "
            "headless.</li></ul>");
    case 6:
        return QObject::tr(
            "<h2>Your model</h2>"
            "<p>Will your own PyTorch model fit your GPU at a batch size, and what is the largest batch that does? "
            "Export it in Python as TorchScript "
            "(<code>torch.jit.trace(model.train(), example).save(\"m.pt\")</code>), open or drop the "
            "<code>.pt</code> file here, give one sample's input shape (<code>3,224,224</code>; the batch is "
            "prepended) and press <b>Estimate</b>. No GPU is needed: training steps run on the CPU with every "
            "allocation recorded, and the allocations are replayed through a model of PyTorch's CUDA caching "
            "allocator, as <code>gpumem estimate</code> does.</p>"
            "<ul><li>A TorchScript file is a program: estimating runs the model's own code. Open only files you "
            "trust.</li>"
            "<li><b>Device total</b> is what <code>nvidia-smi</code> would show: the reserved memory plus the GPU "
            "profile's CUDA context and library workspace. The dashed line is the GPU's capacity, the green "
            "marker the largest batch that fits.</li>"
            "<li>The <b>breakdown</b> shows what the peak holds; the <b>timeline</b> shows the first batch size's "
            "steps event by event, with forward, backward and optimizer marked (wheel zooms, drag pans, "
            "double-click resets; F11 shows the chart alone, full screen, and Esc returns).</li>"
            "<li>The GPU table checks the same replay on every profile: only the context and workspace "
            "differ.</li>"
            "<li><b>Cancel</b> stops waiting; the trace running on the CPU cannot be interrupted and its result "
            "is discarded.</li></ul>");
    default: return {};
    }
}

} // namespace gpumem::ui
