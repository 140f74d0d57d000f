using System.Globalization;

namespace Supermarket.LoadTest.Reporting;

/// <summary>Prints the run's progress every couple of seconds and keeps the time series for the report.</summary>
public sealed class ProgressMonitor(RequestLog log, long total, QueueDepths queues)
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(2);

    public List<ProgressSample> Samples { get; } = [];

    public async Task RunAsync(CancellationToken stop)
    {
        using var timer = new PeriodicTimer(Interval);
        var previous = 0L;
        var started = DateTime.UtcNow;
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
            {
                var done = log.Count;
                var depths = await queues.ReadAsync();
                var sample = new ProgressSample((DateTime.UtcNow - started).TotalSeconds, done, (done - previous) / Interval.TotalSeconds, log.Failures, depths);
                Samples.Add(sample);
                previous = done;
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"[{sample.Seconds,6:F0} s] {done,10:N0}/{total:N0}  {sample.RequestsPerSecond,8:N0} req/s  failures {sample.Failures:N0}  queued for the writer {depths[0]:N0}"));
            }
        }
        catch (OperationCanceledException)
        {
        }
    }
}

public sealed record ProgressSample(double Seconds, long Done, double RequestsPerSecond, long Failures, long[] QueueDepths);
