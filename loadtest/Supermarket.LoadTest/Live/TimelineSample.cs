namespace Supermarket.LoadTest.Live;

/// <summary>
/// One second of the run, as the dashboard shows it and the report charts it. Rates and latencies are the
/// interval's; counts are running totals from the first POST. Answered counts every request sent, whatever came back
/// (0: nothing); an arrival the open simulations dropped was never sent and counts only as a failure. Storage figures
/// are null when not measured (--no-verify) or not readable at that moment; a lag is how long ago the 201s reached
/// what is now stored (or counted).
/// </summary>
public sealed record TimelineSample(
    double Seconds,
    long Answered,
    double RequestsPerSecond,
    IntervalLatencies Latencies,
    IReadOnlyDictionary<int, long> Statuses,
    long Acknowledged,
    long Failures,
    long? WriterQueue,
    long? Stored,
    long? Counted,
    double? StoredLagSeconds,
    double? CountedLagSeconds);
