using System.Globalization;
using System.Net;
using System.Text;

namespace Supermarket.LoadTest.Reporting;

/// <summary>Keeps the run: summary.md, summary.json (for scripts), requests.csv (every request), progress.csv and
/// report.html, in one folder.</summary>
public static class ReportWriter
{
    public static string Write(string directory, LoadOptions options, RunSummary summary, RunResult result, IReadOnlyList<RequestRecord> records,
        IReadOnlyList<ProgressSample> progress, IReadOnlyList<(string Zone, double AtSeconds)> openings)
    {
        Directory.CreateDirectory(directory);
        var invariant = CultureInfo.InvariantCulture;

        var markdown = new StringBuilder()
            .AppendLine("# Supermarket load test")
            .AppendLine()
            .AppendLine(invariant, $"- date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, model: {options.Model}")
            .AppendLine(invariant, $"- stores {options.Stores}, {options.PurchasesPerHour} purchases/hour, {options.Hours} hours, {options.ItemsPerPurchase} items/purchase, date {options.Date}, target {options.Url}")
            .AppendLine(invariant, $"- time zones opened at: {string.Join(", ", openings.Select(o => $"{o.Zone} {o.AtSeconds:F1} s"))}")
            .AppendLine(invariant, $"- max queued for the writer (broker messages): {result.MaxQueuedForWriter:N0}")
            .AppendLine(invariant, $"- after the last response: all stored in MySQL {Seconds(result.StoredAfterLastResponseSeconds)}, all counted in the matrix {Seconds(result.CountedAfterLastResponseSeconds)}")
            .AppendLine(invariant, $"- end to end (first POST → last purchase stored and counted): {Seconds(result.EndToEndSeconds)}, {result.EndToEndPurchasesPerSecond?.ToString("N0", invariant) ?? "-"} purchases/s")
            .AppendLine()
            .AppendLine("```")
            .Append(summary.ToText())
            .AppendLine("```")
            .AppendLine()
            .AppendLine("| status | requests |")
            .AppendLine("|---|---|");
        foreach (var group in records.GroupBy(r => r.Status).OrderBy(g => g.Key))
        {
            markdown.AppendLine(invariant, $"| {StatusName(group.Key)} | {group.LongCount():N0} |");
        }

        if (result.HistoryQueries.Count > 0)
        {
            markdown.AppendLine()
                .AppendLine("| purchase history GET (first page) | asked | not 200 | p50 | p99 | max |")
                .AppendLine("|---|---:|---:|---:|---:|---:|");
            foreach (var figures in result.HistoryQueries)
            {
                markdown.AppendLine(invariant,
                    $"| {figures.Question} | {figures.Asked:N0} | {figures.Failures:N0} | {figures.P50Ms:F2} ms | {figures.P99Ms:F2} ms | {figures.MaxMs:F2} ms |");
            }
        }

        File.WriteAllText(Path.Combine(directory, "summary.md"), markdown.ToString());
        result.Write(Path.Combine(directory, "summary.json"));

        using (var csv = new StreamWriter(Path.Combine(directory, "requests.csv")))
        {
            csv.WriteLine("store,start_ms,latency_ms,status");
            foreach (var r in records)
            {
                csv.WriteLine(string.Create(invariant, $"{r.Store},{r.StartMs:F3},{r.LatencyMs:F3},{r.Status}"));
            }
        }

        File.WriteAllLines(Path.Combine(directory, "progress.csv"),
            ["seconds,completed,requests_per_second,failures,writer_queue",
             .. progress.Select(p => string.Create(invariant, $"{p.Seconds:F1},{p.Done},{p.RequestsPerSecond:F0},{p.Failures},{p.QueueDepths[0]}"))]);

        File.WriteAllText(Path.Combine(directory, "report.html"), Html(summary, markdown.ToString(), progress));
        return directory;
    }

    private static string Seconds(double? seconds) =>
        seconds is { } s ? s.ToString("F1", CultureInfo.InvariantCulture) + " s" : "not measured";

    private static string StatusName(int status) => status switch
    {
        0 => "no answer",
        -1 => "dropped (open model, too many in flight)",
        _ => ((HttpStatusCode)status).ToString() + $" ({status})",
    };

    private static string Html(RunSummary summary, string markdown, IReadOnlyList<ProgressSample> progress)
    {
        var invariant = CultureInfo.InvariantCulture;
        var peak = Math.Max(1, progress.Count == 0 ? 1 : progress.Max(p => p.RequestsPerSecond));
        var end = Math.Max(1, progress.Count == 0 ? 1 : progress[^1].Seconds);
        var points = string.Join(" ", progress.Select(p => string.Create(invariant, $"{p.Seconds / end * 600:F1},{200 - (p.RequestsPerSecond / peak * 190):F1}")));
        return $"""
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Supermarket load test</title>
            <style>body{"{"}font-family:sans-serif;margin:2em{"}"} pre{"{"}background:#f4f4f4;padding:1em{"}"}</style></head>
            <body>
            <h1>Supermarket load test: {summary.Throughput.ToString("N0", invariant)} requests/s</h1>
            <h2>Throughput over the run (peak {peak.ToString("N0", invariant)} requests/s)</h2>
            <svg width="620" height="210" style="border:1px solid #ccc"><polyline fill="none" stroke="#2a6" stroke-width="2" points="{points}"/></svg>
            <h2>Summary</h2>
            <pre>{WebUtility.HtmlEncode(markdown)}</pre>
            </body></html>
            """;
    }
}
