using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;

namespace Supermarket.Api.Insights;

/// <summary>
/// Asks the sales shards (SalesShards:Count, each counting a range of items): "top stores for an item" of the one
/// shard that owns the item, "top items at a store" of every shard at once, merged, under the one deadline of the
/// GET. An answer is whole or not given: with more than one shard, a shard that does not answer in time makes the
/// question <see cref="SalesShardsAway"/> (503), never a merged answer without it. A single aggregator that does not
/// answer stays the 504 it has always been. A shard's answer counts every ledger entry stored before its question
/// arrived (SalesQuestionsConsumer), so no answer counts less than one given before it, by whichever API replica and
/// whichever replica of a shard.
/// </summary>
public sealed class SalesShardClients
{
    private readonly SalesShardOptions _shards;
    private readonly int _maxItemId;
    private readonly IRequestClient<TopItemsForStore>[] _topItems;
    private readonly IRequestClient<TopStoresForItem>[] _topStores;

    public SalesShardClients(IClientFactory clients, IOptions<SalesShardOptions> shards, IOptions<CatalogOptions> catalog)
    {
        (_shards, _maxItemId) = (shards.Value, catalog.Value.MaxItemId);
        // Sent to each shard's own exchange, which that shard's aggregators bind to their queue: the API names no
        // worker's queue, so its broker user needs no right on one. A question asked before a shard ever started
        // reaches nobody and times out, as it would unanswered.
        var shardNumbers = Enumerable.Range(1, _shards.Count).ToArray();
        _topItems = [.. shardNumbers.Select(shard => clients.CreateRequestClient<TopItemsForStore>(Address(shard, _shards.Count)))];
        _topStores = [.. shardNumbers.Select(shard => clients.CreateRequestClient<TopStoresForItem>(Address(shard, _shards.Count)))];
    }

    public async Task<TopItemsAtStore> TopItemsAtStoreAsync(TopItemsForStore question, RequestTimeout timeout, CancellationToken deadline)
    {
        var answers = await AskAsync(Enumerable.Range(1, _shards.Count).ToArray(),
            shard => _topItems[shard - 1].GetResponse<TopItemsAtStore>(question, QuestionDelivery.Transient, deadline, timeout));
        return ShardAnswers.Merge(question, answers);
    }

    public async Task<TopStoresOfItem> TopStoresForItemAsync(TopStoresForItem question, RequestTimeout timeout, CancellationToken deadline)
    {
        var owner = _shards.ShardOf(question.ItemId, _maxItemId);
        var answers = await AskAsync([owner],
            shard => _topStores[shard - 1].GetResponse<TopStoresOfItem>(question, QuestionDelivery.Transient, deadline, timeout));
        return answers[0];
    }

    private async Task<TAnswer[]> AskAsync<TAnswer>(int[] shards, Func<int, Task<Response<TAnswer>>> ask)
        where TAnswer : class
    {
        var asked = shards.Select(ask).ToArray();
        try
        {
            return [.. (await Task.WhenAll(asked)).Select(response => response.Message)];
        }
        catch (Exception) when (_shards.Count > 1 && TimedOut(asked, shards) is { Count: > 0 } away)
        {
            throw new SalesShardsAway(away);
        }
    }

    /// <summary>The ranges of the shards whose question ran out of time, when nothing else went wrong.</summary>
    private List<string> TimedOut<TAnswer>(Task<Response<TAnswer>>[] asked, int[] shards)
        where TAnswer : class
    {
        var away = new List<string>();
        for (var i = 0; i < asked.Length; i++)
        {
            if (asked[i].IsCanceled || asked[i].Exception?.InnerException is RequestTimeoutException or OperationCanceledException)
            {
                away.Add(_shards.ItemsOf(shards[i], _maxItemId).ToString());
            }
            else if (!asked[i].IsCompletedSuccessfully)
            {
                return [];
            }
        }

        return away;
    }

    private static Uri Address(int shard, int shards) => new($"exchange:{Topology.SalesQuestionsExchange(shard, shards)}");
}
