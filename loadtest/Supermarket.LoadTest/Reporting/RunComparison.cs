using System.Globalization;
using System.Text;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// Report folders side by side: every <see cref="RunFigure"/> of each run's summary.json, and each run after the first
/// as a ratio of the first (on one noisy box, ratios measured in one session are what compares). The compare command
/// prints it and writes it as Markdown; loadtest/measure.sh builds docs/performance.md's tables with it.
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

    private static void Row(StringBuilder table, string name, IEnumerable<string> cells) =>
        table.AppendLine($"| {name} | {string.Join(" | ", cells.Select(cell => cell.Replace("|", "\\|", StringComparison.Ordinal)))} |");
}
