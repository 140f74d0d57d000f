using System.Diagnostics;
using Spectre.Console;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Live;

/// <summary>
/// Samples the run every second into the <see cref="Timeline"/> (requests from the <see cref="RequestWindow"/>, the
/// writer's queue from RabbitMQ, storage from MySQL and the matrix) and shows it: the live dashboard on a terminal,
/// a line every couple of seconds otherwise (CI logs, or --plain).
/// </summary>
public sealed class LiveMonitor(LoadOptions options, RequestLog log, QueueDepths queues, StorageProgress? storage, Func<IReadOnlyList<ZoneState>> zones)
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    public Timeline Timeline { get; } = new();

    /// <summary>The dashboard as it stood when the run stopped, as text (the report folder keeps it).</summary>
    public string LastFrame { get; private set; } = "";

    public async Task RunAsync(CancellationToken stop)
    {
        var dashboard = new Dashboard(options, zones);
        if (!options.Plain && Dashboard.CanDraw)
        {
            await AnsiConsole.Live(dashboard.Render(null, 0)).AutoClear(false).StartAsync(async context =>
                await SampleAsync(stop, sample =>
                {
                    context.UpdateTarget(dashboard.Render(sample, Progress()));
                    context.Refresh();
                }));
        }
        else
        {
            await SampleAsync(stop, sample =>
            {
                if ((int)Math.Round(sample.Seconds) % 2 == 0)
                {
                    Console.WriteLine(Dashboard.Line(sample, options.TotalPurchases));
                }
            });
        }

        LastFrame = Dashboard.ToText(dashboard.Render(Timeline.Samples.LastOrDefault(), Progress()));
    }

    private double Progress() => Math.Min(1, (double)log.Count / options.TotalPurchases);

    private async Task SampleAsync(CancellationToken stop, Action<TimelineSample> show)
    {
        using var timer = new PeriodicTimer(Interval);
        var (previousSeconds, previousAnswered) = (0.0, 0L);
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
            {
                var (latencies, statuses) = log.Window.Take();
                var seconds = Stopwatch.GetElapsedTime(log.StartedAt).TotalSeconds;
                // An arrival the open simulations dropped (-1) was never sent: a failure, not an answer.
                var answered = statuses.Where(status => status.Key != -1).Sum(status => status.Value);
                var dropped = statuses.GetValueOrDefault(-1);
                var depths = await queues.ReadAsync();
                var (stored, counted) = storage is null ? (null, null) : await storage.ReadAsync();
                var acknowledged = statuses.GetValueOrDefault(201);
                var sample = new TimelineSample(
                    seconds, answered, (answered - previousAnswered) / (seconds - previousSeconds), latencies, statuses,
                    acknowledged, answered + dropped - acknowledged, depths[0] < 0 ? null : depths[0], stored, counted,
                    Timeline.LagSeconds(seconds, acknowledged, stored), Timeline.LagSeconds(seconds, acknowledged, counted));
                Timeline.Add(sample);
                show(sample);
                (previousSeconds, previousAnswered) = (seconds, answered);
            }
        }
        catch (OperationCanceledException)
        {
            // The day is over.
        }
    }
}
