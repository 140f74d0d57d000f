using System.Globalization;
using static System.FormattableString;
using System.Net;
using System.Text;
using Supermarket.LoadTest.Live;
using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// report.html: one self-contained page (no script, no external file) with the headline figures, the thresholds,
/// charts over the run (<see cref="LineChart"/>) with the time zones' openings marked, the verification's checks and
/// the settings of the load test and of the system it measured.
/// </summary>
public static class HtmlReport
{
    /// <summary>The look of every page the load test writes (this report, the compare command's curve).</summary>
    internal const string Style = """
        body{font-family:system-ui,sans-serif;margin:2em auto;max-width:960px;color:#222}
        h1{margin-bottom:.2em} .sub{color:#666;margin-top:0}
        .cards{display:flex;flex-wrap:wrap;gap:.6em;margin:1em 0} .card{border:1px solid #ddd;border-radius:6px;padding:.5em .8em;min-width:120px}
        .card b{display:block;font-size:1.4em} .card span{color:#666;font-size:.85em}
        table{border-collapse:collapse;margin:.5em 0 1.5em} td,th{border-bottom:1px solid #eee;padding:.25em .7em;text-align:left;font-size:.9em}
        td.num{text-align:right} .pass{color:#1a7f37} .fail{color:#c62828;font-weight:bold}
        figure.chart{margin:1em 0} figcaption{font-weight:bold;margin-bottom:.3em}
        svg text{font-size:11px;fill:#444} svg .tick.y{text-anchor:end} svg .tick.x{text-anchor:middle}
        svg .axis-label{text-anchor:middle;font-size:12px;fill:#222} svg .axis{stroke:#888} svg .grid{stroke:#eee}
        svg .marker{stroke:#999;stroke-dasharray:4 3} svg .marker-label{fill:#777} svg .warm-up{fill:#f3f3f3}
        details{margin:.5em 0} pre{background:#f6f6f6;padding:1em;overflow:auto;font-size:.8em}
        """;

    internal static readonly string[] Palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];

    public static string Write(FinishedRun run)
    {
        var result = run.Result;
        var html = new StringBuilder()
            .Append(Invariant($"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Supermarket load test: {Encode(result.Label)}</title><style>{Style}</style></head><body>"))
            .Append(Invariant($"<h1>Supermarket load test: {Encode(result.Label)}</h1>"))
            .Append(Invariant($"<p class=\"sub\">{result.StartedAt:yyyy-MM-dd HH:mm:ss} UTC · {Encode(result.Simulation)} · {run.Options.Stores} stores · {run.Options.TotalPurchases:N0} purchases → {Encode(run.Options.Url.ToString())}{(result.WarmUpSeconds > 0 ? Invariant($" · warm-up {result.WarmUpSeconds:F0} s (shaded), left out of the rate and latencies") : "")}</p>"));

        html.Append("<div class=\"cards\">");
        foreach (var name in new[] { "rps", "e2e", "p99", "lag", "failures" })
        {
            var figure = RunFigure.Find(name)!;
            html.Append(Invariant($"<div class=\"card\"><b>{Encode(figure.Format(figure.Read(result)))}</b><span>{Encode(figure.Description)}</span></div>"));
        }

        var verdict = result.Verified switch { true => "<b class=\"pass\">passed</b>", false => "<b class=\"fail\">FAILED</b>", null => "<b>not run</b>" };
        html.Append(Invariant($"<div class=\"card\">{verdict}<span>verification</span></div></div>"));

        if (result.Thresholds.Count > 0)
        {
            html.Append("<h2>Thresholds</h2><table><tr><th>threshold</th><th>actual</th><th>met</th></tr>");
            foreach (var threshold in result.Thresholds)
            {
                html.Append(Invariant($"<tr><td>{Encode(threshold.Threshold)}</td><td class=\"num\">{Encode(RunFigure.Find(threshold.Figure)!.Format(threshold.Actual))}</td>{PassCell(threshold.Passed)}</tr>"));
            }

            html.Append("</table>");
        }

        html.Append("<h2>Over the run</h2>");
        foreach (var chart in Charts(run))
        {
            html.Append(chart.Render());
        }

        html.Append("<h2>Figures</h2><table>");
        foreach (var figure in RunFigure.All)
        {
            html.Append(Invariant($"<tr><td>{Encode(figure.Description)} ({figure.Name})</td><td class=\"num\">{Encode(figure.Format(figure.Read(result)))}</td></tr>"));
        }

        html.Append("</table><h2>Status codes</h2><table><tr><th>status</th><th>requests</th></tr>");
        foreach (var group in run.Requests.GroupBy(r => r.Status).OrderBy(g => g.Key))
        {
            html.Append(Invariant($"<tr><td>{Encode(MarkdownSummary.StatusName(group.Key))}</td><td class=\"num\">{group.LongCount():N0}</td></tr>"));
        }

        html.Append("</table>");
        if (result.Questions.Count > 0)
        {
            html.Append("<h2>GETs while the day ran</h2><table><tr><th>question</th><th>asked</th><th>not 200</th><th>p50</th><th>p99</th><th>p99.9</th><th>max</th></tr>");
            foreach (var q in result.Questions)
            {
                html.Append(Invariant($"<tr><td>{Encode(q.Question)}</td><td class=\"num\">{q.Asked:N0}</td><td class=\"num\">{q.Failures:N0}</td><td class=\"num\">{q.P50Ms:F2} ms</td><td class=\"num\">{q.P99Ms:F2} ms</td><td class=\"num\">{q.P999Ms:F2} ms</td><td class=\"num\">{q.MaxMs:F2} ms</td></tr>"));
            }

            html.Append("</table>");
        }

        html.Append("<h2>Verification</h2>");
        if (result.Checks.Count == 0)
        {
            html.Append("<p>Not run (--no-verify).</p>");
        }
        else
        {
            html.Append("<table class=\"checks\"><tr><th>check</th><th>result</th></tr>");
            foreach (var check in result.Checks)
            {
                html.Append(Invariant($"<tr><td>{Encode(check.Check)}</td>{PassCell(check.Passed)}</tr>"));
            }

            html.Append("</table>");
        }

        html.Append("<h2>Settings</h2>")
            .Append(SettingsTable("load test", LoadTestSettings(run.Options), open: true));
        foreach (var group in run.System.Groups)
        {
            html.Append(SettingsTable(group.Name, group.Settings, open: group.Settings.Count <= 6));
        }

        return html.Append(Invariant($"<details><summary>The seeds' summary</summary><pre>{Encode(run.Summary.ToText())}</pre></details>"))
            .Append("</body></html>").ToString();
    }

    /// <summary>The charts: every one over the run's seconds, the time zones' openings marked, the warm-up shaded.</summary>
    public static IReadOnlyList<LineChart> Charts(FinishedRun run)
    {
        var timeline = run.Timeline;
        var markers = run.Zones.Where(zone => zone.OpenedAt is not null).Select(zone => new ChartMarker(zone.OpenedAt!.Value, $"{zone.Zone} opens")).ToList();
        var warmUp = run.Result.WarmUpSeconds;
        LineChart Chart(string title, string axis, params ChartSeries[] series) =>
            new(title, axis, [.. series.Where(line => line.Points.Count > 0)]) { Markers = markers, WarmUpSeconds = warmUp };

        var charts = new List<LineChart>
        {
            Chart("Throughput", "per second",
                new ChartSeries("POST answers", Palette[0], [.. timeline.Select(s => (s.Seconds, s.RequestsPerSecond))]),
                new ChartSeries("purchases stored in MySQL", Palette[1], Rate(timeline, s => s.Stored)),
                new ChartSeries("purchases counted in the matrix", Palette[2], Rate(timeline, s => s.Counted))),
            Chart("POST latency", "milliseconds",
                new ChartSeries("p50", Palette[0], [.. timeline.Where(s => s.Latencies.Count > 0).Select(s => (s.Seconds, s.Latencies.P50Ms))]),
                new ChartSeries("p95", Palette[1], [.. timeline.Where(s => s.Latencies.Count > 0).Select(s => (s.Seconds, s.Latencies.P95Ms))]),
                new ChartSeries("p99", Palette[3], [.. timeline.Where(s => s.Latencies.Count > 0).Select(s => (s.Seconds, s.Latencies.P99Ms))])),
            Chart("Status codes", "answers per second",
                [.. timeline.SelectMany(s => s.Statuses.Keys).Distinct().Order().Select((status, i) =>
                    new ChartSeries(Dashboard.StatusName(status), status == 201 ? Palette[2] : Palette[(i + 3) % Palette.Length], Rate(timeline, s => s.Statuses.GetValueOrDefault(status))))]),
            Chart("Queued for the writer", "messages",
                new ChartSeries("writer queue", Palette[4], [.. timeline.Where(s => s.WriterQueue is not null).Select(s => (s.Seconds, (double)s.WriterQueue!.Value))])),
            Chart("How far storage trails the 201s", "seconds",
                new ChartSeries("stored in MySQL", Palette[1], [.. timeline.Where(s => s.StoredLagSeconds is not null).Select(s => (s.Seconds, s.StoredLagSeconds!.Value))]),
                new ChartSeries("counted in the matrix", Palette[2], [.. timeline.Where(s => s.CountedLagSeconds is not null).Select(s => (s.Seconds, s.CountedLagSeconds!.Value))])),
        };
        return [.. charts.Where(chart => chart.HasData)];
    }

    /// <summary>A running count's rate between consecutive samples.</summary>
    private static IReadOnlyList<(double X, double Y)> Rate(IReadOnlyList<TimelineSample> timeline, Func<TimelineSample, long?> count)
    {
        var rates = new List<(double, double)>();
        for (var i = 1; i < timeline.Count; i++)
        {
            if (count(timeline[i]) is { } now && count(timeline[i - 1]) is { } before && timeline[i].Seconds > timeline[i - 1].Seconds)
            {
                rates.Add((timeline[i].Seconds, (now - before) / (timeline[i].Seconds - timeline[i - 1].Seconds)));
            }
        }

        return rates;
    }

    private static IEnumerable<Setting> LoadTestSettings(LoadOptions options) =>
    [
        new("simulation", options.Simulation.Describe()),
        new("stores", options.Stores.ToString(CultureInfo.InvariantCulture)),
        new("purchases per hour", options.PurchasesPerHour.ToString(CultureInfo.InvariantCulture)),
        new("hours", options.Hours.ToString(CultureInfo.InvariantCulture)),
        new("items per purchase", options.ItemsPerPurchase.ToString(CultureInfo.InvariantCulture)),
        new("customers per store", options.CustomersPerStore.ToString(CultureInfo.InvariantCulture)),
        new("item ids", Invariant($"1..{options.MaxItemId}")),
        new("date", options.Date),
        new("rate (constant, ramp's last)", options.Simulation == Simulation.Day ? "-" : Invariant($"{options.Rate} per store per second")),
        new("ramp's first rate", options.Simulation == Simulation.Ramp ? Invariant($"{options.RampFrom} per store per second") : "-"),
        new("warm-up", Invariant($"{options.WarmUp.TotalSeconds:F0} s")),
        new("retry for", Invariant($"{options.RetryFor.TotalSeconds:F0} s")),
        new("history GETs per second", options.HistoryQueriesPerSecond.ToString(CultureInfo.InvariantCulture)),
        new("sales GETs per second", options.SalesQueriesPerSecond.ToString(CultureInfo.InvariantCulture)),
        new("seed", options.Seed.ToString(CultureInfo.InvariantCulture)),
        new("target", options.Url.ToString()),
    ];

    private static string SettingsTable(string name, IEnumerable<Setting> settings, bool open)
    {
        var table = new StringBuilder(Invariant($"<details{(open ? " open" : "")}><summary>{Encode(name)}</summary><table>"));
        foreach (var setting in settings)
        {
            table.Append(Invariant($"<tr><td>{Encode(setting.Name)}</td><td>{Encode(setting.Value)}</td></tr>"));
        }

        return table.Append("</table></details>").ToString();
    }

    private static string PassCell(bool passed) => passed ? "<td class=\"pass\">passed</td>" : "<td class=\"fail\">FAILED</td>";

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
