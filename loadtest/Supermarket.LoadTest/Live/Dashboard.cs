using System.Globalization;
using static System.FormattableString;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace Supermarket.LoadTest.Live;

/// <summary>What the live console dashboard shows of a second of the run, and the plain line that stands in for it
/// where the output is not a terminal.</summary>
public sealed class Dashboard(LoadOptions options, Func<IReadOnlyList<ZoneState>> zones)
{
    private const int Width = 100;
    private const int BarWidth = 60;

    public static bool CanDraw => !Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive;

    public IRenderable Render(TimelineSample? sample, double progress)
    {
        var header = new Markup(Invariant(
            $"[bold]Supermarket load test[/] · {Markup.Escape(options.Name)} → {Markup.Escape(options.Url.ToString())} · elapsed [bold]{TimeSpan.FromSeconds(sample?.Seconds ?? 0):mm\\:ss}[/]"));
        // Drawn with block characters, not colour alone, so a frame pasted as text still shows the progress.
        var done = (int)Math.Round(progress * BarWidth);
        var bar = new Markup(Invariant(
            $"[green]{new string('█', done)}[/][grey]{new string('░', BarWidth - done)}[/] {progress:P0} of {options.TotalPurchases:N0} purchases sent"));

        var requests = new Table().Border(TableBorder.Rounded).Title("POST /purchase").HideHeaders().AddColumn("").AddColumn("");
        requests.AddRow("rate, last second", Invariant($"[bold]{sample?.RequestsPerSecond ?? 0:N0}[/] req/s"));
        requests.AddRow("latency, last second", sample is null ? "-" : Invariant($"p50 {sample.Latencies.P50Ms:F1} · p95 {sample.Latencies.P95Ms:F1} · p99 [bold]{sample.Latencies.P99Ms:F1}[/] ms"));
        requests.AddRow("status codes so far", sample is null ? "-" : string.Join(" · ", sample.Statuses.OrderBy(s => s.Key).Select(s => Invariant($"{StatusName(s.Key)} {s.Value:N0}"))));
        requests.AddRow("failures so far", sample is null || sample.Failures == 0 ? "[green]0[/]" : Invariant($"[red]{sample.Failures:N0}[/]"));

        var system = new Table().Border(TableBorder.Rounded).Title("the system").HideHeaders().AddColumn("").AddColumn("");
        system.AddRow("queued for the writer", sample?.WriterQueue is { } queued ? Invariant($"{queued:N0} messages") : "-");
        system.AddRow("stored in MySQL", Storage(sample?.Stored, sample?.StoredLagSeconds));
        system.AddRow("counted in the matrix", Storage(sample?.Counted, sample?.CountedLagSeconds));
        system.AddRow("acknowledged (201)", Invariant($"{sample?.Acknowledged ?? 0:N0}"));

        var open = string.Join(" · ", zones().Select(zone => zone.OpenedAt is { } at
            ? Invariant($"[green]{zone.Zone}[/] ({zone.Stores} stores) open since {at:F1} s")
            : Invariant($"[grey]{zone.Zone} ({zone.Stores} stores) waiting[/]")));
        return new Rows(header, bar, new Columns(requests, system).Collapse(), new Markup("time zones: " + open));
    }

    /// <summary>The plain line: CI logs and redirected output get this every other second.</summary>
    public static string Line(TimelineSample sample, long total) => Invariant(
        $"[{sample.Seconds,6:F0} s] {sample.Answered,10:N0}/{total:N0}  {sample.RequestsPerSecond,8:N0} req/s  p99 {sample.Latencies.P99Ms:F1} ms  failures {sample.Failures:N0}  queued for the writer {sample.WriterQueue?.ToString("N0", CultureInfo.InvariantCulture) ?? "-"}  storage trails {sample.StoredLagSeconds?.ToString("F1", CultureInfo.InvariantCulture) ?? "-"} s");

    /// <summary>A frame as plain text, for the report folder (and docs/load-test.md).</summary>
    public static string ToText(IRenderable frame)
    {
        var text = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(text),
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
        });
        console.Profile.Width = Width + 10;
        console.Write(frame);
        return text.ToString();
    }

    public static string StatusName(int status) => status switch
    {
        0 => "no answer",
        -1 => "dropped",
        _ => status.ToString(CultureInfo.InvariantCulture),
    };

    private static string Storage(long? done, double? lag) => done is { } count
        ? Invariant($"{count:N0} (trails {lag:F1} s)")
        : "-";
}
