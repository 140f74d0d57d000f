using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Api.Broker;
using Supermarket.Api.Insights;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Sales;

namespace Supermarket.Api.Live;

/// <summary>The questions open live pages watch, each asked once an update however many pages watch it. A ranking
/// never gives way to one counted through an earlier entry (docs/architecture.md, "The live page").</summary>
public sealed class LiveSales(
    SalesShardClients shards, BrokerConnection broker, IngestMetrics ingest, IOptions<InsightOptions> insights, IOptions<LiveOptions> options,
    IOptions<SalesShardOptions> shardOptions, TimeProvider clock, ILogger<LiveSales> logger) : IDisposable
{
    private readonly Dictionary<LiveQuestion, Watched> _watched = [];
    private readonly Dictionary<(int Shard, string Replica), (CountingStatus Status, DateTimeOffset Seen)> _replicas = [];
    private readonly Lock _lock = new();
    private bool _disposed;

    public TimeSpan UpdateInterval => options.Value.UpdateInterval;

    /// <summary>Null when Live:MaxQuestionsWatched questions are watched already, or the API is stopping.</summary>
    public LiveViewer? Watch(LiveQuestion question)
    {
        lock (_lock)
        {
            if (!_watched.TryGetValue(question, out var watched))
            {
                if (_disposed || _watched.Count >= options.Value.MaxQuestionsWatched)
                {
                    return null;
                }

                watched = new Watched(question, new LiveRanking(Name(question.Kind), question.Id, Day(question.From), Day(question.To), "starting",
                    "Asking the Sales aggregator.", [], null, 0));
                _watched.Add(question, watched);
                _ = Task.Run(() => AskWhileWatchedAsync(watched));
            }

            watched.Viewers++;
            return new LiveViewer(watched, () => Leave(watched));
        }
    }

    /// <summary>This API's confirmed purchases, and each shard's counting as its replicas last answered.</summary>
    public LiveChain Chain()
    {
        var now = clock.GetUtcNow();
        List<LiveShard> shardsSeen;
        lock (_lock)
        {
            // Replicas gone for long (restarted ones come back under another name) are forgotten.
            foreach (var gone in _replicas.Where(replica => now - replica.Value.Seen > 10 * options.Value.ReplicaSeenWithin).Select(replica => replica.Key).ToList())
            {
                _replicas.Remove(gone);
            }

            shardsSeen = [.. _replicas.Values
                .Where(replica => now - replica.Seen <= options.Value.ReplicaSeenWithin)
                .GroupBy(replica => replica.Status.Shard)
                .Select(shard => shard.MaxBy(replica => replica.Seen) is var latest
                    ? new LiveShard(shard.Key, shard.Count(), latest.Status.CountedStoredAt, latest.Status.PurchasesPerSecond, latest.Seen)
                    : throw new InvalidOperationException())
                .OrderBy(shard => shard.Shard)];
        }

        var lastConfirmed = ingest.Confirmed.Last;
        var shardCount = shardOptions.Value.Count;
        // Unknown until every shard has answered having counted something: the shard furthest behind decides.
        double? lag = lastConfirmed is { } last && shardsSeen.Count == shardCount && shardsSeen.All(shard => shard.CountedStoredAt is not null)
            ? Math.Max(0, (last - shardsSeen.Min(shard => new DateTimeOffset(shard.CountedStoredAt!.Value, TimeSpan.Zero))).TotalSeconds)
            : null;
        return new LiveChain(now, ingest.Confirmed.PerSecond(), lastConfirmed, shardCount, [.. shardsSeen], lag);
    }

    private void Leave(Watched watched)
    {
        lock (_lock)
        {
            if (--watched.Viewers == 0)
            {
                // This watch only: after the hub's disposal another may stand under the same question.
                if (_watched.TryGetValue(watched.Question, out var current) && current == watched)
                {
                    _watched.Remove(watched.Question);
                }

                watched.Stop.Cancel();
            }
        }
    }

    private async Task AskWhileWatchedAsync(Watched watched)
    {
        while (!watched.Stop.IsCancellationRequested)
        {
            watched.Publish(await AskAsync(watched.Question, watched.Latest, watched.Stop.Token));
            try
            {
                await Task.Delay(options.Value.UpdateInterval, clock, watched.Stop.Token);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    /// <summary>Asked as a GET asks it; without an answer, <paramref name="last"/> marked with why.</summary>
    private async Task<LiveRanking> AskAsync(LiveQuestion question, LiveRanking last, CancellationToken unwatched)
    {
        var timeout = insights.Value.QueryTimeout;
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(unwatched);
        deadline.CancelAfter(timeout);
        try
        {
            if (!broker.CanAsk())
            {
                return last with { State = "away", Message = "The message broker cannot be reached: the Sales aggregator cannot be asked." };
            }

            var (bars, countedThrough, refused) = question.Kind == LiveQuestionKind.TopItemsAtStore
                ? Ranked(await shards.TopItemsAtStoreAsync(question.AsTopItems(insights.Value.TopItemsCount), deadline.Token))
                : Ranked(await shards.TopStoresForItemAsync(question.AsTopStores(insights.Value.TopStoresCount), deadline.Token));
            if (refused is not null)
            {
                return last with { State = "refused", Message = refused.Reason };
            }

            // Never fewer units than shown: an answer counted through less than the one shown is not shown.
            return countedThrough < last.CountedThrough
                ? last with { State = "current", Message = null }
                : last with { State = "current", Message = null, Bars = bars, AsOf = clock.GetUtcNow(), CountedThrough = countedThrough };
        }
        catch (SalesShardsAway away)
        {
            return last with { State = "away", Message = away.Message };
        }
        catch (Exception exception) when (exception is RequestTimeoutException or OperationCanceledException)
        {
            return last with { State = "late", Message = $"The Sales aggregator did not answer within {timeout.TotalSeconds:0.#} s (Insights:QueryTimeout)." };
        }
        catch (Exception exception)
        {
            logger.LogWarning(exception, "Asking the Sales aggregator for the live page failed");
            return last with { State = "away", Message = "The Sales aggregator cannot be asked now." };
        }
    }

    private (LiveBar[] Bars, long CountedThrough, RangeRefused? Refused) Ranked(TopItemsAtStore answer)
    {
        if (answer.Counting is { } counting)
        {
            var seen = clock.GetUtcNow();
            lock (_lock)
            {
                foreach (var status in counting)
                {
                    _replicas[(status.Shard, status.Replica)] = (status, seen);
                }
            }
        }

        return ([.. answer.Items.Select(item => new LiveBar(item.ItemId, item.Units))], answer.CountedThrough, answer.Refused);
    }

    private static (LiveBar[] Bars, long CountedThrough, RangeRefused? Refused) Ranked(TopStoresOfItem answer) =>
        ([.. answer.Stores.Select(store => new LiveBar(store.StoreId, store.Units))], answer.CountedThrough, answer.Refused);

    private static string Name(LiveQuestionKind kind) => kind == LiveQuestionKind.TopItemsAtStore ? "store" : "item";

    private static string? Day(DateOnly? day) => day?.ToString("yyyyMMdd", System.Globalization.CultureInfo.InvariantCulture);

    public void Dispose()
    {
        lock (_lock)
        {
            _disposed = true;
            foreach (var watched in _watched.Values)
            {
                watched.Stop.Cancel();
            }

            _watched.Clear();
        }
    }

    /// <summary>Its latest ranking, and a task that completes when the next is published.</summary>
    internal sealed class Watched(LiveQuestion question, LiveRanking starting)
    {
        private LiveRanking _latest = starting;
        private TaskCompletionSource _changed = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public LiveQuestion Question { get; } = question;

        /// <summary>The pages watching it; changed under the hub's lock.</summary>
        public int Viewers { get; set; }

        public CancellationTokenSource Stop { get; } = new();

        public LiveRanking Latest => Volatile.Read(ref _latest);

        public Task Changed => Volatile.Read(ref _changed).Task;

        public void Publish(LiveRanking ranking)
        {
            Volatile.Write(ref _latest, ranking);
            Interlocked.Exchange(ref _changed, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
        }
    }
}

public sealed class LiveViewer : IDisposable
{
    private readonly LiveSales.Watched _watched;
    private Action? _leave;

    internal LiveViewer(LiveSales.Watched watched, Action leave) => (_watched, _leave) = (watched, leave);

    public LiveRanking Latest => _watched.Latest;

    public Task Changed => _watched.Changed;

    public void Dispose() => Interlocked.Exchange(ref _leave, null)?.Invoke();
}
