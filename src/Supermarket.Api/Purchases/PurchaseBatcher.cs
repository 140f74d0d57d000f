using System.Diagnostics;
using System.Threading.Channels;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Purchases;

/// <summary>
/// Group commit at ingest: requests hand their purchase here and wait; a single loop gathers what has arrived into a
/// <see cref="PurchaseBatchRecorded"/> of at most Ingest:MaxBatchSize, publishes it, and answers every request in it
/// when the broker confirms. While up to Ingest:MaxBatchesInFlight batches await their confirm, new purchases
/// accumulate, so batches grow with the load by themselves. A partial batch that would go while another still awaits
/// its confirm lingers up to Ingest:BatchLinger for more: the broker's cost is per message, and those requests would
/// have waited for a confirm anyway. With nothing in flight it goes at once, so a quiet API adds no wait.
/// A 201 still means the broker has the purchase.
/// </summary>
public sealed class PurchaseBatcher(ConfirmedPublisher publisher, IOptions<IngestOptions> options, ILogger<PurchaseBatcher> logger)
    : BackgroundService
{
    private readonly IngestOptions _options = options.Value;
    private readonly Channel<Pending> _arrivals = Channel.CreateBounded<Pending>(new BoundedChannelOptions(options.Value.MaxPendingPurchases)
    {
        SingleReader = true,
        FullMode = BoundedChannelFullMode.Wait,
    });

    /// <summary>What became of the purchase's publish, by the request's deadline; not published when the API is
    /// overloaded (too many purchases waiting).</summary>
    /// <remarks>A purchase is published only while its request still waits, and with time left for the broker's
    /// confirm (<see cref="IngestOptions.TimeToConfirm"/>); otherwise it is withdrawn, never published, and its
    /// answer can promise nothing was recorded. A purchase a group took answers with its group, by the latest
    /// deadline in it (docs/architecture.md, "Group commit"): a publish whose confirm does not come by then has an
    /// outcome that is not known, and says so.</remarks>
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
                // The linger is over; or the API is stopping, and what was taken is published (or refused) all the same,
                // since its requests wait for their group's answer.
            }
        }

        // A purchase left without time for its confirm (half the reserve it was taken with) is not sent: its request
        // answers that nothing was recorded.
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
        using var span = IngestTracing.StartBatch(batch.Select(p => p.Caller));
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

        /// <summary>The request's span, if it is traced: the batch's publish continues its trace.</summary>
        public ActivityContext Caller { get; } = Activity.Current?.Context ?? default;

        public TaskCompletionSource<PublishOutcome> Outcome { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>A batch takes the purchase, unless its request has stopped waiting or is about to (less than
        /// <paramref name="reserve"/> is left of its deadline: it withdraws it).</summary>
        public bool TryTake(long reserve) =>
            Stopwatch.GetTimestamp() + reserve < Deadline && Interlocked.CompareExchange(ref _state, Taken, Waiting) == Waiting;

        /// <summary>The request stops waiting, unless a batch has taken the purchase already.</summary>
        public bool TryWithdraw() => Interlocked.CompareExchange(ref _state, Withdrawn, Waiting) == Waiting;
    }
}
