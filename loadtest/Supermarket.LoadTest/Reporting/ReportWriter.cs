using System.Globalization;

namespace Supermarket.LoadTest.Reporting;

/// <summary>Keeps the run in one folder: report.html (what people look at), summary.md, summary.json (what scripts
/// read), system.json (what the system ran with), requests.csv (every request), timeline.csv (every second) and
/// dashboard.txt (the live dashboard's last frame).</summary>
public static class ReportWriter
{
    public static string Write(string directory, FinishedRun run)
    {
        Directory.CreateDirectory(directory);
        var invariant = CultureInfo.InvariantCulture;
        File.WriteAllText(Path.Combine(directory, "summary.md"), MarkdownSummary.Write(run));
        run.Result.Write(Path.Combine(directory, "summary.json"));
        run.System.Write(Path.Combine(directory, "system.json"));
        File.WriteAllText(Path.Combine(directory, "dashboard.txt"), run.DashboardFrame);

        using (var csv = new StreamWriter(Path.Combine(directory, "requests.csv")))
        {
            csv.WriteLine("store,start_ms,latency_ms,status");
            foreach (var r in run.Requests)
            {
                csv.WriteLine(string.Create(invariant, $"{r.Store},{r.StartMs:F3},{r.LatencyMs:F3},{r.Status}"));
            }
        }

        var statuses = run.Timeline.SelectMany(sample => sample.Statuses.Keys).Distinct().Order().ToList();
        File.WriteAllLines(Path.Combine(directory, "timeline.csv"),
            [string.Join(',', ["seconds", "answered", "requests_per_second", "p50_ms", "p95_ms", "p99_ms", "acknowledged", "failures",
                "writer_queue", "stored", "counted", "stored_lag_seconds", "counted_lag_seconds", .. statuses.Select(status => $"status_{status}")]),
             .. run.Timeline.Select(s => string.Join(',', [
                 string.Create(invariant, $"{s.Seconds:F1},{s.Answered},{s.RequestsPerSecond:F0},{s.Latencies.P50Ms:F2},{s.Latencies.P95Ms:F2},{s.Latencies.P99Ms:F2},{s.Acknowledged},{s.Failures}"),
                 string.Create(invariant, $"{s.WriterQueue},{s.Stored},{s.Counted},{s.StoredLagSeconds:F2},{s.CountedLagSeconds:F2}"),
                 .. statuses.Select(status => s.Statuses.GetValueOrDefault(status).ToString(invariant))]))]);

        File.WriteAllText(Path.Combine(directory, "report.html"), HtmlReport.Write(run));
        return directory;
    }
}
