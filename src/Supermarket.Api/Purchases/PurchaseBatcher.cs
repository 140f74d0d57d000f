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

    /// <summary>True once the batch holding the purchase is confirmed; false if that did not happen by the request's
    /// deadline, or the API is overloaded (too many purchases waiting).</summary>
    /// <remarks>A purchase is published only while its request still waits: one whose deadline passes (or whose
    /// client goes) before a batch took it is withdrawn and never published, so that 503 never hides a purchase that
    /// is recorded later, and a client without an Idempotency-Key can retry without recording it twice. A batch's
    /// publish is bounded by the latest deadline among its purchases: a request whose deadline is near never cuts short
    /// the publish of the others in its group, which would answer them 503 with time left (and, had the frame left,
    /// store them anyway). So a request whose purchase a group took answers with its group, past its own deadline if
    /// need be: never 503 for a purchase its group then had confirmed (#57). The group answers all its requests by its
    /// latest deadline, at most Ingest:RequestDeadline after the last of them began (the proxy's read timeout,
    /// IngestOptions.ProxyReadTimeoutSeconds, allows twice the deadline), also when its publish overruns that (MassTransit does not give up a publish on a blocked connection when
    /// told): then every request of the group answers 503, as for any publish whose confirm did not come in
    /// time.</remarks>
    public async Task<bool> SubmitAsync(PurchaseRecorded purchase, RequestDeadline deadline)
    {
        var pending = new Pending(purchase, deadline.At);
        if (!_arrivals.Writer.TryWrite(pending))
        {
            return false;
        }

        try
        {
            return await pending.Confirmed.Task.WaitAsync(deadline.Ended);
        }
        catch (OperationCanceledException)
        {
            var withdrawn = pending.TryWithdraw();
            deadline.RequestAborted.ThrowIfCancellationRequested();
            // Taken: its group answers it, by the group's latest deadline (PublishAsync).
            return !withdrawn && await pending.Confirmed.Task.WaitAsync(deadline.RequestAborted);
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
            unsent.TryTake();
            unsent.Confirmed.TrySetResult(false);
        }
    }

    private async Task<List<Pending>> GatherAsync(ChannelReader<Pending> reader, bool othersInFlight, CancellationToken stoppingToken)
    {
        var batch = new List<Pending>(_options.MaxBatchSize);
        while (batch.Count < _options.MaxBatchSize && reader.TryRead(out var pending))
        {
            if (pending.TryTake())
            {
                batch.Add(pending);
            }
        }

        if (othersInFlight && batch.Count > 0 && batch.Count < _options.MaxBatchSize && _options.BatchLinger > TimeSpan.Zero)
        {
            using var linger = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
            linger.CancelAfter(_options.BatchLinger);
            try
            {
                while (batch.Count < _options.MaxBatchSize && await reader.WaitToReadAsync(linger.Token))
                {
                    while (batch.Count < _options.MaxBatchSize && reader.TryRead(out var pending))
                    {
                        if (pending.TryTake())
                        {
                            batch.Add(pending);
                        }
                    }
                }
            }
            catch (OperationCanceledException)
            {
                // The linger is over; or the API is stopping, and what was taken is published (or refused) all the same,
                // since its requests wait for their group's answer.
            }
        }

        return batch;
    }

    private async Task PublishAsync(List<Pending> batch, SemaphoreSlim slots)
    {
        using var span = IngestTracing.StartBatch(batch.Select(p => p.Caller));
        var within = RequestDeadline.Until(batch.Max(pending => pending.Deadline));
        var publishing = PublishWithinAsync(batch, within);
        try
        {
            // Answered by the group's deadline even if the publish overruns it; its slot stays taken until it ends.
            var confirmed = await publishing.WaitAsync(within);
            foreach (var pending in batch)
            {
                pending.Confirmed.TrySetResult(confirmed);
            }
        }
        catch (TimeoutException)
        {
            foreach (var pending in batch)
            {
                pending.Confirmed.TrySetResult(false);
            }
        }
        finally
        {
            await publishing;
            slots.Release();
        }
    }

    private async Task<bool> PublishWithinAsync(List<Pending> batch, TimeSpan within)
    {
        try
        {
            return await publisher.PublishAsync(new PurchaseBatchRecorded([.. batch.Select(p => p.Purchase)]), within, CancellationToken.None);
        }
        catch (Exception exception)
        {
            logger.LogError(exception, "Publishing a batch of {Count} purchases failed", batch.Count);
            return false;
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

        public TaskCompletionSource<bool> Confirmed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>A batch takes the purchase, unless its request has stopped waiting or is about to (its deadline
        /// has passed: it withdraws it).</summary>
        public bool TryTake() =>
            Stopwatch.GetTimestamp() < Deadline && Interlocked.CompareExchange(ref _state, Taken, Waiting) == Waiting;

        /// <summary>The request stops waiting, unless a batch has taken the purchase already.</summary>
        public bool TryWithdraw() => Interlocked.CompareExchange(ref _state, Withdrawn, Waiting) == Waiting;
    }
}
