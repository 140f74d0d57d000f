using System.Diagnostics;
using MassTransit;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Questions;

public sealed class SalesQuestionsConsumer(
    SalesMatrix matrix, SalesByDay days, MatrixReadiness readiness, CountingPace pace, SalesMetrics metrics, TimeProvider clock)
    : IConsumer<TopItemsForStore>, IConsumer<TopStoresForItem>, IConsumer<SalesQuestions>
{
    public Task Consume(ConsumeContext<TopItemsForStore> context)
    {
        QuestionOutsideShard.ThrowIfAny(matrix, [context.Message], []);
        return AnswerAsync(context, "top-items-for-store", TopItems);
    }

    public Task Consume(ConsumeContext<TopStoresForItem> context)
    {
        QuestionOutsideShard.ThrowIfAny(matrix, [], [context.Message]);
        return AnswerAsync(context, "top-stores-for-item", TopStores);
    }

    /// <summary>Asked by one API, they are all of this shard or none are: one refused refuses them all.</summary>
    public Task Consume(ConsumeContext<SalesQuestions> context)
    {
        QuestionOutsideShard.ThrowIfAny(matrix, context.Message.TopItems, context.Message.TopStores);
        return AnswerAsync(context, "sales-questions", (questions, countedThrough) =>
            new SalesAnswers([.. questions.TopItems.Select(question => TopItems(question, countedThrough))],
                [.. questions.TopStores.Select(question => TopStores(question, countedThrough))]));
    }

    // Never from a half-built matrix: a question held as a rebuild begins, or ranked while one began, is handed back
    // to its shard's queue, where a ready replica answers it.
    private async Task AnswerAsync<TQuestion, TAnswer>(ConsumeContext<TQuestion> context, string question, Func<TQuestion, long, TAnswer> rank)
        where TQuestion : class
        where TAnswer : class
    {
        var expires = ExpiresAt(context);
        // Before the check of Ready: a rebuild that begins after the check completes this one.
        var rebuildBegun = readiness.RebuildBegun;
        if (!readiness.Ready.IsCompleted)
        {
            await HandBackAsync(context, expires);
            return;
        }

        var arrived = Stopwatch.GetTimestamp();
        var waited = Waited.Expired;
        try
        {
            waited = await CaughtUpAsync(expires, rebuildBegun, context.CancellationToken);
        }
        finally
        {
            metrics.WaitedForLedger(Stopwatch.GetElapsedTime(arrived), waited == Waited.CaughtUp);
        }

        switch (waited)
        {
            case Waited.Expired:
                return;
            case Waited.Rebuilding:
                await HandBackAsync(context, expires);
                return;
        }

        // In this order: a rebuild makes the matrix not ready before it counts itself begun.
        var rebuilds = readiness.Rebuilds;
        if (readiness.Ready.IsCompleted)
        {
            var started = Stopwatch.GetTimestamp();
            // Read before ranking: every entry up to it is in the matrix by now, so the answer holds at least those.
            var countedThrough = readiness.CountedThrough;
            var answer = rank(context.Message, countedThrough);
            if (readiness.Rebuilds == rebuilds)
            {
                metrics.Answered(question, Stopwatch.GetElapsedTime(started));
                await context.RespondAsync(answer, QuestionDelivery.Transient);
                return;
            }
        }

        await HandBackAsync(context, expires);
    }

    /// <summary>As its asker's, for the time it has left: a ready replica answers the asker. This replica's endpoint
    /// stops as its rebuild begins, so it does not take the question again.</summary>
    private async Task HandBackAsync<TQuestion>(ConsumeContext<TQuestion> context, long? expires)
        where TQuestion : class
    {
        var left = TimeLeft(expires);
        if (left <= TimeSpan.Zero && left != Timeout.InfiniteTimeSpan)
        {
            return;
        }

        var queue = await context.GetSendEndpoint(context.ReceiveContext.InputAddress);
        await queue.Send(context.Message, send =>
        {
            (send.MessageId, send.RequestId, send.ConversationId, send.CorrelationId, send.InitiatorId) =
                (context.MessageId, context.RequestId, context.ConversationId, context.CorrelationId, context.InitiatorId);
            (send.ResponseAddress, send.FaultAddress, send.SourceAddress) = (context.ResponseAddress, context.FaultAddress, context.SourceAddress);
            send.Durable = false;
            if (left != Timeout.InfiniteTimeSpan)
            {
                send.TimeToLive = left;
            }
        }, context.CancellationToken);
    }

    /// <summary>A read begun after the question arrived must find nothing more: no answer counts less than one before
    /// it (docs/architecture.md, "Guarantees"). Its time to live runs from its arrival by this clock: no two machines
    /// need agree on the time (docs/reliability.md, "An answer's time to live and the responder's clock").</summary>
    private async Task<Waited> CaughtUpAsync(long? expires, Task rebuildBegun, CancellationToken cancellationToken)
    {
        var arrived = readiness.ReadsBegun;
        readiness.WantRead();
        while (true)
        {
            // In this order: a read that catches up after the check completes this task.
            var next = readiness.NextCaughtUp;
            if (readiness.CaughtUpRead > arrived)
            {
                return Waited.CaughtUp;
            }

            if (!await WithinAsync(Task.WhenAny(next, rebuildBegun), expires, cancellationToken))
            {
                return Waited.Expired;
            }

            if (rebuildBegun.IsCompleted)
            {
                return Waited.Rebuilding;
            }
        }
    }

    private enum Waited
    {
        CaughtUp,
        Expired,
        Rebuilding,
    }

    private long? ExpiresAt(ConsumeContext context) =>
        context.ExpirationTime is { } expiration && context.SentTime is { } sent
            ? clock.GetTimestamp() + (long)((expiration - sent).TotalSeconds * clock.TimestampFrequency)
            : null;

    private async Task<bool> WithinAsync(Task task, long? expires, CancellationToken cancellationToken)
    {
        var left = TimeLeft(expires);
        if (left <= TimeSpan.Zero && left != Timeout.InfiniteTimeSpan)
        {
            return false;
        }

        try
        {
            await task.WaitAsync(left, cancellationToken);
            return true;
        }
        catch (TimeoutException)
        {
            return false;
        }
    }

    private TimeSpan TimeLeft(long? expires) =>
        expires is { } at ? TimeSpan.FromSeconds((at - clock.GetTimestamp()) / (double)clock.TimestampFrequency) : Timeout.InfiniteTimeSpan;

    private TopItemsAtStore TopItems(TopItemsForStore request, long countedThrough)
    {
        Span<RankedSales> best = stackalloc RankedSales[Math.Clamp(request.Count, 1, SalesMatrix.MaxRankedCount)];
        var count = request.From is null && request.To is null
            ? matrix.TopItemsAtStore(request.StoreId, best)
            : days.TopItemsAtStore(request.StoreId, request.From ?? DateOnly.MinValue, request.To ?? DateOnly.MaxValue, best);
        // After the ranking: a day that fell out while it ranked has moved the first day answerable past it already.
        if (Refusal(request.From, request.To) is { } refused)
        {
            return new TopItemsAtStore(request.StoreId, [], countedThrough, refused, [pace.Status()]);
        }

        var items = new ItemSales[count];
        for (var i = 0; i < count; i++)
        {
            items[i] = new ItemSales(best[i].Id, best[i].Units);
        }

        return new TopItemsAtStore(request.StoreId, items, countedThrough, Counting: [pace.Status()]);
    }

    private TopStoresOfItem TopStores(TopStoresForItem request, long countedThrough)
    {
        Span<RankedSales> best = stackalloc RankedSales[Math.Clamp(request.Count, 1, SalesMatrix.MaxRankedCount)];
        var count = request.From is null && request.To is null
            ? matrix.TopStoresForItem(request.ItemId, best)
            : days.TopStoresForItem(request.ItemId, request.From ?? DateOnly.MinValue, request.To ?? DateOnly.MaxValue, best);
        if (Refusal(request.From, request.To) is { } refused)
        {
            return new TopStoresOfItem(request.ItemId, [], countedThrough, refused);
        }

        var stores = new StoreSales[count];
        for (var i = 0; i < count; i++)
        {
            stores[i] = new StoreSales(best[i].Id, best[i].Units);
        }

        return new TopStoresOfItem(request.ItemId, stores, countedThrough);
    }

    /// <summary>A range left open at its start begins at the first day kept, and so can always be counted.</summary>
    private RangeRefused? Refusal(DateOnly? from, DateOnly? to)
    {
        if (from is null && to is null)
        {
            return null;
        }

        // Below zero (a ledger that lost entries), the days hold what the purchases sum to, which a range must equal.
        if (readiness.UndatedUnits > 0)
        {
            return new RangeRefused("from", $"The sales ledger holds {readiness.UndatedUnits} units sold that were stored before its entries carried their day; "
                + "no range of days is counted exactly until they are dated (docs/operations.md, \"Dating old sales\"). All-time answers are exact.", Undated: true);
        }

        if (from is { } first && to is { } last && last.DayNumber - first.DayNumber + 1 > days.DaysKept)
        {
            return new RangeRefused("to", $"A range spans at most {days.DaysKept} days (Aggregator:DaysKept); {first:yyyyMMdd} to {last:yyyyMMdd} spans {last.DayNumber - first.DayNumber + 1}.");
        }

        return from < days.FirstDayAnswerable
            ? new RangeRefused("from", $"The sales kept begin on {days.FirstDayAnswerable:yyyyMMdd}: a range can start on that day or later.")
            : null;
    }
}
