using System.Diagnostics;
using System.Threading.Channels;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Purchases;

/// <summary>Group commit at ingest: one loop gathers the waiting purchases into a <see cref="PurchaseBatchRecorded"/>,
/// publishes it and answers each request at its confirm. A partial group lingers only while another awaits its
/// confirm (the broker's cost is per message), so a quiet API adds no wait.</summary>
public sealed class PurchaseBatcher(ConfirmedPublisher publisher, IOptions<IngestOptions> options, ILogger<PurchaseBatcher> logger)
    : BackgroundService
{
    private readonly IngestOptions _options = options.Value;
    private readonly Channel<Pending> _arrivals = Channel.CreateBounded<Pending>(new BoundedChannelOptions(options.Value.MaxPendingPurchases)
    {
        SingleReader = true,
        FullMode = BoundedChannelFullMode.Wait,
    });

    /// <summary>Published only while its request waits with time left to confirm, else withdrawn (nothing recorded);
    /// taken, it answers by its group's latest deadline (docs/architecture.md, "Guarantees").</summary>
    public async Task<PublishOutcome> SubmitAsync(PurchaseRecorded purchase, RequestDeadline deadline)
    {
        var pending = new Pending(purchase, deadline.At);
        if (!_arrivals.Writer.TryWrite(pending))
        {
            return PublishOutcome.NotPublished;
        }

        try
        {
            return await pending.Outcome.Task.WaitAsync(deadline.Ended);
        }
        catch (OperationCanceledException)
        {
            var withdrawn = pending.TryWithdraw();
            deadline.RequestAborted.ThrowIfCancellationRequested();
            // Taken: its group answers it, by the group's latest deadline (PublishAsync).
            return withdrawn ? PublishOutcome.NotPublished : await pending.Outcome.Task.WaitAsync(deadline.RequestAborted);
        }
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var slots = new SemaphoreSlim(_options.MaxBatchesInFlight);
        var reader = _arrivals.Reader;
        try
        {
            while (await reader.WaitToReadAsync(stoppingToken))
            {
                await slots.WaitAsync(stoppingToken);
                var othersInFlight = slots.CurrentCount < _options.MaxBatchesInFlight - 1;
                var batch = await GatherAsync(reader, othersInFlight, stoppingToken);
                if (batch.Count == 0)
                {
                    // Everything waiting had been withdrawn.
                    slots.Release();
                    continue;
                }

                _ = PublishAsync(batch, slots);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }

        while (reader.TryRead(out var unsent))
        {
            unsent.TryTake(0);
            unsent.Outcome.TrySetResult(PublishOutcome.NotPublished);
        }
    }

    private async Task<List<Pending>> GatherAsync(ChannelReader<Pending> reader, bool othersInFlight, CancellationToken stoppingToken)
    {
        var batch = new List<Pending>(_options.MaxBatchSize);
        TakeWhatArrived(reader, batch);
        if (othersInFlight && batch.Count > 0 && batch.Count < _options.MaxBatchSize && _options.BatchLinger > TimeSpan.Zero)
        {
            // The linger never eats the time the first purchase taken needs for its confirm.
            var lingerFor = TimeSpan.FromTicks(Math.Min(_options.BatchLinger.Ticks,
                (RequestDeadline.Until(batch.Min(pending => pending.Deadline)) - _options.TimeToConfirm).Ticks));
            using var linger = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
            linger.CancelAfter(lingerFor > TimeSpan.Zero ? lingerFor : TimeSpan.Zero);
            try
            {
                while (batch.Count < _options.MaxBatchSize && await reader.WaitToReadAsync(linger.Token))
                {
                    TakeWhatArrived(reader, batch);
                }
            }
            catch (OperationCanceledException)
            {
                // Linger over, or stopping: what was taken is published all the same, as its requests wait for it.
            }
        }

        // Left without time for its confirm (half its reserve): not sent, so its 503 can say nothing was recorded.
        var confirmable = Stopwatch.GetTimestamp() + (ToTimestampTicks(_options.TimeToConfirm) / 2);
        foreach (var late in batch.Where(pending => pending.Deadline < confirmable))
        {
            late.Outcome.TrySetResult(PublishOutcome.NotPublished);
        }

        batch.RemoveAll(pending => pending.Deadline < confirmable);
        return batch;
    }

    private void TakeWhatArrived(ChannelReader<Pending> reader, List<Pending> batch)
    {
        var reserve = ToTimestampTicks(_options.TimeToConfirm);
        while (batch.Count < _options.MaxBatchSize && reader.TryRead(out var pending))
        {
            if (pending.TryTake(reserve))
            {
                batch.Add(pending);
            }
        }
    }

    private static long ToTimestampTicks(TimeSpan time) => (long)(time.TotalSeconds * Stopwatch.Frequency);

    private async Task PublishAsync(List<Pending> batch, SemaphoreSlim slots)
    {
        using var span = StartSpan(batch);
        var within = RequestDeadline.Until(batch.Max(pending => pending.Deadline));
        using var attempt = new PublishAttempt(within);
        var publishing = PublishWithinAsync(batch, attempt);
        try
        {
            // Answered by the group's deadline even if the publish overruns it (MassTransit does not give up a publish
            // on a blocked connection); its slot stays taken until it ends.
            PublishOutcome outcome;
            try
            {
                outcome = await publishing.WaitAsync(within);
            }
            catch (TimeoutException)
            {
                outcome = attempt.TryGiveUp() ? PublishOutcome.NotPublished : PublishOutcome.Unknown;
            }

            foreach (var pending in batch)
            {
                pending.Outcome.TrySetResult(outcome);
            }
        }
        finally
        {
            await publishing;
            slots.Release();
        }
    }

    /// <summary>A span is never worth a purchase: one that cannot start (a failing trace listener) leaves the group
    /// untraced rather than unanswered, its requests waiting past their deadlines for an answer that never comes.</summary>
    private Activity? StartSpan(List<Pending> batch)
    {
        try
        {
            return IngestTracing.StartBatch(batch.Select(p => p.Caller));
        }
        catch (Exception exception)
        {
            logger.LogWarning(exception, "The span of a group of {Count} purchases could not start; the group goes without it", batch.Count);
            return null;
        }
    }

    private async Task<PublishOutcome> PublishWithinAsync(List<Pending> batch, PublishAttempt attempt)
    {
        try
        {
            return await publisher.PublishAsync(new PurchaseBatchRecorded([.. batch.Select(p => p.Purchase)]), attempt);
        }
        catch (Exception exception)
        {
            logger.LogError(exception, "Publishing a batch of {Count} purchases failed", batch.Count);
            return attempt.TryGiveUp() ? PublishOutcome.NotPublished : PublishOutcome.Unknown;
        }
    }

    private sealed class Pending(PurchaseRecorded purchase, long deadline)
    {
        private const int Waiting = 0, Taken = 1, Withdrawn = 2;
        private int _state = Waiting;

        public PurchaseRecorded Purchase { get; } = purchase;

        /// <summary>When its request stops waiting (a <see cref="Stopwatch"/> timestamp).</summary>
        public long Deadline { get; } = deadline;

        public ActivityContext Caller { get; } = Activity.Current?.Context ?? default;

        public TaskCompletionSource<PublishOutcome> Outcome { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>Unless less than <paramref name="reserve"/> is left: its request withdraws it.</summary>
        public bool TryTake(long reserve) =>
            Stopwatch.GetTimestamp() + reserve < Deadline && Interlocked.CompareExchange(ref _state, Taken, Waiting) == Waiting;

        public bool TryWithdraw() => Interlocked.CompareExchange(ref _state, Withdrawn, Waiting) == Waiting;
    }
}
