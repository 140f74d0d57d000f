using System.Globalization;
using System.Net;
using System.Text;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// Report folders side by side: every <see cref="RunFigure"/> of each run's summary.json, and each run after the first
/// as a ratio of the first (on one noisy box, ratios measured in one session are what compares). The compare command
/// prints it and writes it as Markdown, and the runs as a curve over stored history as HTML (<see cref="Curve"/>);
/// loadtest/measure.sh builds docs/performance.md's tables with it.
/// </summary>
public static class RunComparison
{
    public static string Table(IReadOnlyList<string> folders)
    {
        var runs = folders.Select(folder => RunResult.Read(Path.Combine(folder, "summary.json"))).ToList();
        var table = new StringBuilder()
            .AppendLine("| | " + string.Join(" | ", runs.Select((run, i) => run.Label.Length > 0 ? run.Label : Path.GetFileName(Path.TrimEndingDirectorySeparator(folders[i])))) + " |")
            .AppendLine("|---|" + string.Concat(runs.Select(_ => "---:|")));
        Row(table, "report", runs.Select((_, i) => Path.GetFileName(Path.TrimEndingDirectorySeparator(folders[i]))));
        Row(table, "simulation", runs.Select(run => run.Simulation));
        Row(table, "stores", runs.Select(run => run.Stores.ToString("N0", CultureInfo.InvariantCulture)));
        Row(table, "201s", runs.Select(run => run.Successful.ToString("N0", CultureInfo.InvariantCulture)));
        foreach (var figure in RunFigure.All)
        {
            var first = figure.Read(runs[0]);
            Row(table, $"{figure.Description} ({figure.Name})", runs.Select((run, i) =>
            {
                var value = figure.Read(run);
                return i > 0 && value is { } v && first is > 0
                    ? string.Create(CultureInfo.InvariantCulture, $"{figure.Format(v)} ({v / first.Value:F2}×)")
                    : figure.Format(value);
            }));
        }

        Row(table, "verified", runs.Select(run => run.Verified switch { true => "yes", false => "**no**", null => "-" }));
        Row(table, "thresholds", runs.Select(run => run.Thresholds.Count == 0 ? "-" : run.Thresholds.All(t => t.Passed) ? "all met" : "**breached**"));
        return table.ToString();
    }

    /// <summary>The figures that change as history grows (issue #45), each chart those of one unit.</summary>
    private static readonly (string Title, string[] Figures)[] CurveCharts =
    [
        ("End to end: first POST → last purchase stored and counted", ["e2e"]),
        ("p99 latencies: the POSTs, the slower purchase history question, the slower sales question", ["p99", "history-p99", "sales-p99"]),
        ("CPU a purchase over the day: MariaDB, the writers, the whole machine", ["db-cpu", "writer-cpu", "machine-cpu"]),
        ("MariaDB's buffer pool: pages read from disk and written per 1,000 purchases over the day", ["db-reads", "db-writes"]),
    ];

    /// <summary>
    /// The runs as a curve over the history their database held (<see cref="RunResult.PurchasesStoredBefore"/>): an
    /// HTML page of charts, one point a run, in the report's look. Null when fewer than two runs say how much history
    /// they ran on (a ceiling run has no database).
    /// </summary>
    public static string? Curve(IReadOnlyList<string> folders)
    {
        var runs = folders.Select(folder => RunResult.Read(Path.Combine(folder, "summary.json")))
            .Where(run => run.PurchasesStoredBefore is not null)
            .OrderBy(run => run.PurchasesStoredBefore)
            .ToList();
        if (runs.Count < 2)
        {
            return null;
        }

        var html = new StringBuilder()
            .Append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Supermarket: the figures over stored history</title>")
            .Append(CultureInfo.InvariantCulture, $"<style>{HtmlReport.Style}</style></head><body><h1>The figures over stored history</h1>")
            .Append(CultureInfo.InvariantCulture, $"<p class=\"sub\">{runs.Count} runs, each a point at the purchases its database held before it: ")
            .AppendJoin(", ", runs.Select(run => WebUtility.HtmlEncode(string.Create(CultureInfo.InvariantCulture, $"{run.Label} ({run.PurchasesStoredBefore:N0})"))))
            .Append("</p>");
        foreach (var (title, names) in CurveCharts)
        {
            var figures = names.Select(name => RunFigure.Find(name)!).ToList();
            var series = figures.Select((figure, i) => new ChartSeries(figure.Name, HtmlReport.Palette[i % HtmlReport.Palette.Length],
                [.. runs.Select(run => (X: run.PurchasesStoredBefore!.Value / 1e6, Y: figure.Read(run)))
                    .Where(point => point.Y is not null)
                    .Select(point => (point.X, point.Y!.Value))]));
            var chart = new LineChart(title, figures[0].Unit, [.. series]) { XAxis = ("million purchases stored before the run", "million purchases") };
            if (chart.HasData)
            {
                html.Append(chart.Render());
            }
        }

        return html.Append("</body></html>").ToString();
    }

    private static void Row(StringBuilder table, string name, IEnumerable<string> cells) =>
        table.AppendLine($"| {name} | {string.Join(" | ", cells.Select(cell => cell.Replace("|", "\\|", StringComparison.Ordinal)))} |");
}
