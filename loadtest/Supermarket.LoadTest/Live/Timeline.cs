namespace Supermarket.LoadTest.Live;

/// <summary>The run's seconds so far, and how far storage trails the 201s, read off them.</summary>
public sealed class Timeline
{
    private readonly List<TimelineSample> _samples = [];

    public IReadOnlyList<TimelineSample> Samples
    {
        get
        {
            lock (_samples)
            {
                return [.. _samples];
            }
        }
    }

    public void Add(TimelineSample sample)
    {
        lock (_samples)
        {
            _samples.Add(sample);
        }
    }

    /// <summary>How long ago the run had 201s for <paramref name="done"/> purchases, between samples in a straight
    /// line: storage that holds what the tills had acknowledged 1.5 s ago trails by 1.5 s. Zero when caught up.</summary>
    public double? LagSeconds(double now, long acknowledgedNow, long? done)
    {
        if (done is not { } reached)
        {
            return null;
        }

        if (reached >= acknowledgedNow)
        {
            return 0;
        }

        lock (_samples)
        {
            var (previousSeconds, previousAcknowledged) = (0.0, 0L);
            foreach (var sample in _samples)
            {
                if (sample.Acknowledged >= reached)
                {
                    var share = sample.Acknowledged == previousAcknowledged
                        ? 1
                        : (double)(reached - previousAcknowledged) / (sample.Acknowledged - previousAcknowledged);
                    return now - (previousSeconds + (share * (sample.Seconds - previousSeconds)));
                }

                (previousSeconds, previousAcknowledged) = (sample.Seconds, sample.Acknowledged);
            }

            // Less than the newest sample: between it and now.
            var sinceLast = acknowledgedNow == previousAcknowledged
                ? 1
                : (double)(reached - previousAcknowledged) / (acknowledgedNow - previousAcknowledged);
            return now - (previousSeconds + (sinceLast * (now - previousSeconds)));
        }
    }
}
