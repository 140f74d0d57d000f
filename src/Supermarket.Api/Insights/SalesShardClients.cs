using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;

namespace Supermarket.Api.Insights;

/// <summary>Asks the sales shards: an item's top stores of its owner, a store's top items of all, merged. An answer is
/// whole or not given: with several shards, one late makes it <see cref="SalesShardsAway"/> (503), never a partial
/// answer (docs/operations.md, "Sales shards").</summary>
public sealed class SalesShardClients : IAsyncDisposable
{
    private readonly SalesShardOptions _shards;
    private readonly int _maxItemId;
    private readonly ShardQuestions[] _questions;

    public SalesShardClients(IClientFactory clients, IOptions<SalesShardOptions> shards, IOptions<CatalogOptions> catalog, IOptions<InsightOptions> options)
    {
        (_shards, _maxItemId) = (shards.Value, catalog.Value.MaxItemId);
        // To each shard's own exchange, which its aggregators bind: the API's broker user needs no right on a queue.
        _questions = [.. Enumerable.Range(1, _shards.Count).Select(shard =>
            new ShardQuestions(clients.CreateRequestClient<SalesQuestions>(Address(shard, _shards.Count)), options.Value))];
    }

    public async Task<TopItemsAtStore> TopItemsAtStoreAsync(TopItemsForStore question, CancellationToken deadline)
    {
        var answers = await AskAsync(Enumerable.Range(1, _shards.Count).ToArray(), shard => _questions[shard - 1].AskAsync(question, deadline));
        return ShardAnswers.Merge(question, answers);
    }

    public async Task<TopStoresOfItem> TopStoresForItemAsync(TopStoresForItem question, CancellationToken deadline)
    {
        var owner = _shards.ShardOf(question.ItemId, _maxItemId);
        var answers = await AskAsync([owner], shard => _questions[shard - 1].AskAsync(question, deadline));
        return answers[0];
    }

    private async Task<TAnswer[]> AskAsync<TAnswer>(int[] shards, Func<int, Task<TAnswer>> ask)
    {
        var asked = shards.Select(ask).ToArray();
        try
        {
            return await Task.WhenAll(asked);
        }
        catch (Exception) when (_shards.Count > 1 && TimedOut(asked, shards) is { Count: > 0 } away)
        {
            throw new SalesShardsAway(away);
        }
    }

    /// <summary>The ranges of the shards whose question ran out of time, when nothing else went wrong.</summary>
    private List<string> TimedOut<TAnswer>(Task<TAnswer>[] asked, int[] shards)
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

    public async ValueTask DisposeAsync()
    {
        foreach (var shard in _questions)
        {
            await shard.DisposeAsync();
        }
    }
}

/// <summary>An answer without these shards would be wrong, so none is given: 503 with Retry-After.</summary>
public sealed class SalesShardsAway(IReadOnlyList<string> shards)
    : Exception($"The sales shards of items {string.Join(", ", shards)} did not answer in time; an answer without them would be wrong.")
{
    public IReadOnlyList<string> Shards { get; } = shards;
}
