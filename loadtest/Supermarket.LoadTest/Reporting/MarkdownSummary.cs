using System.Globalization;
using static System.FormattableString;
using System.Net;
using System.Text;

namespace Supermarket.LoadTest.Reporting;

/// <summary>summary.md: the run's figures, thresholds, answers and checks as Markdown, for a pull request or a doc.</summary>
public static class MarkdownSummary
{
    public static string Write(FinishedRun run)
    {
        var (options, result) = (run.Options, run.Result);
        var markdown = new StringBuilder()
            .AppendLine(Invariant($"# Supermarket load test: {result.Label}"))
            .AppendLine()
            .AppendLine(Invariant($"- started {result.StartedAt:yyyy-MM-dd HH:mm:ss} UTC; simulation: {result.Simulation}{(result.WarmUpSeconds > 0 ? Invariant($", the first {result.WarmUpSeconds:F0} s a warm-up left out of the rate and latencies") : "")}"))
            .AppendLine(Invariant($"- {options.Stores} stores, {options.PurchasesPerHour} purchases/hour, {options.Hours} hours, {options.ItemsPerPurchase} items/purchase, date {options.Date}, target {options.Url}"))
            .AppendLine(Invariant($"- time zones opened at: {string.Join(", ", run.Zones.Select(zone => zone.OpenedAt is { } at ? Invariant($"{zone.Zone} {at:F1} s") : $"{zone.Zone} never"))}"))
            .AppendLine()
            .AppendLine("| figure | value |")
            .AppendLine("|---|---:|");
        foreach (var figure in RunFigure.All)
        {
            markdown.AppendLine(Invariant($"| {figure.Description} ({figure.Name}) | {figure.Format(figure.Read(result))} |"));
        }

        if (result.Thresholds.Count > 0)
        {
            markdown.AppendLine().AppendLine("| threshold | actual | met |").AppendLine("|---|---:|---|");
            foreach (var threshold in result.Thresholds)
            {
                markdown.AppendLine(Invariant($"| {threshold.Threshold} | {RunFigure.Find(threshold.Figure)!.Format(threshold.Actual)} | {(threshold.Passed ? "yes" : "**no**")} |"));
            }
        }

        markdown.AppendLine().AppendLine("```").Append(run.Summary.ToText()).AppendLine("```")
            .AppendLine().AppendLine("| status | requests |").AppendLine("|---|---:|");
        foreach (var group in run.Requests.GroupBy(r => r.Status).OrderBy(g => g.Key))
        {
            markdown.AppendLine(Invariant($"| {StatusName(group.Key)} | {group.LongCount():N0} |"));
        }

        if (result.Questions.Count > 0)
        {
            markdown.AppendLine()
                .AppendLine("| GET while the day ran (history: first page) | asked | not 200 | p50 | p99 | p99.9 | max |")
                .AppendLine("|---|---:|---:|---:|---:|---:|---:|");
            foreach (var figures in result.Questions)
            {
                markdown.AppendLine(Invariant(
                    $"| {figures.Question} | {figures.Asked:N0} | {figures.Failures:N0} | {figures.P50Ms:F2} ms | {figures.P99Ms:F2} ms | {figures.P999Ms:F2} ms | {figures.MaxMs:F2} ms |"));
            }
        }

        if (result.Checks.Count > 0)
        {
            markdown.AppendLine().AppendLine("| verification | passed |").AppendLine("|---|---|");
            foreach (var check in result.Checks)
            {
                markdown.AppendLine($"| {check.Check.Replace("|", "\\|", StringComparison.Ordinal)} | {(check.Passed ? "yes" : "**no**")} |");
            }
        }

        return markdown.ToString();
    }

    public static string StatusName(int status) => status switch
    {
        0 => "no answer",
        -1 => "dropped (open simulations, too many in flight)",
        _ => ((HttpStatusCode)status).ToString() + Invariant($" ({status})"),
    };
}
