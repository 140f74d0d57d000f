using System.Diagnostics;
using MassTransit;
using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>Answers the API's questions from the live matrix: of its shard's items, the API merging the shards'
/// answers. Served from a queue of its own, so a question never waits behind a backlog of purchases.</summary>
public sealed class SalesQuestionsConsumer(SalesMatrix matrix, MatrixReadiness readiness, SalesMetrics metrics) : IConsumer<TopItemsForStore>, IConsumer<TopStoresForItem>
{
    private static readonly TimeSpan CatchUpRecheck = TimeSpan.FromMilliseconds(5);

    public Task Consume(ConsumeContext<TopItemsForStore> context) => AnswerAsync(context, "top-items-for-store", TopItems);

    public Task Consume(ConsumeContext<TopStoresForItem> context) => AnswerAsync(context, "top-stores-for-item", TopStores);

    // Never answered from a half-built matrix: a question waits while the matrix is built or rebuilt (the asker times
    // out, 504, as if the aggregator were down), and one ranked while a rebuild began is ranked again once it is whole.
    private async Task AnswerAsync<TQuestion, TAnswer>(ConsumeContext<TQuestion> context, string question, Func<TQuestion, long, TAnswer> rank)
        where TQuestion : class, ISalesQuestion
        where TAnswer : class
    {
        if (!await CaughtUpAsync(context))
        {
            return;
        }

        while (true)
        {
            // In this order: a rebuild makes the matrix not ready before it counts itself begun.
            var rebuilds = readiness.Rebuilds;
            if (readiness.Ready is { IsCompleted: false } building)
            {
                await building.WaitAsync(context.CancellationToken);
                continue;
            }

            var started = Stopwatch.GetTimestamp();
            // Read before ranking: every entry up to it is in the matrix by now, so the answer holds at least those.
            var countedThrough = readiness.CountedThrough;
            var answer = rank(context.Message, countedThrough);
            if (readiness.Rebuilds == rebuilds)
            {
                metrics.Answered(question, Stopwatch.GetElapsedTime(started));
                await context.RespondAsync(answer);
                return;
            }
        }
    }

    /// <summary>
    /// An answer never counts less than the asker was already told (<see cref="ISalesQuestion.CountedAtLeast"/>), which
    /// another replica of this shard may have counted: this one waits until it has counted as far, or until a read of
    /// the ledger begun after the question arrived found nothing more (the asker's position came from a ledger since
    /// restored to an earlier state, and will not be reached), rechecking every few milliseconds. A question that expires
    /// meanwhile is left unanswered: its asker has given up on it.
    /// </summary>
    private async Task<bool> CaughtUpAsync<TQuestion>(ConsumeContext<TQuestion> context)
        where TQuestion : class, ISalesQuestion
    {
        var (atLeast, reads) = (context.Message.CountedAtLeast, readiness.CaughtUpReads);
        while (readiness.CountedThrough < atLeast && readiness.CaughtUpReads < reads + 2)
        {
            if (context.ExpirationTime is { } expires && DateTime.UtcNow >= expires)
            {
                return false;
            }

            await Task.Delay(CatchUpRecheck, context.CancellationToken);
        }

        return true;
    }

    private TopItemsAtStore TopItems(TopItemsForStore request, long countedThrough)
    {
        Span<RankedSales> best = stackalloc RankedSales[Math.Clamp(request.Count, 1, SalesMatrix.MaxRankedCount)];
        var count = request.StoreId >= 1 && request.StoreId <= matrix.MaxStores ? matrix.TopItemsAtStore(request.StoreId, best) : 0;
        var items = new ItemSales[count];
        for (var i = 0; i < count; i++)
        {
            items[i] = new ItemSales(best[i].Id, best[i].Units);
        }

        return new TopItemsAtStore(request.StoreId, items, countedThrough);
    }

    private TopStoresOfItem TopStores(TopStoresForItem request, long countedThrough)
    {
        Span<RankedSales> best = stackalloc RankedSales[Math.Clamp(request.Count, 1, SalesMatrix.MaxRankedCount)];
        var count = matrix.Items.Contains(request.ItemId) ? matrix.TopStoresForItem(request.ItemId, best) : 0;
        var stores = new StoreSales[count];
        for (var i = 0; i < count; i++)
        {
            stores[i] = new StoreSales(best[i].Id, best[i].Units);
        }

        return new TopStoresOfItem(request.ItemId, stores, countedThrough);
    }
}
