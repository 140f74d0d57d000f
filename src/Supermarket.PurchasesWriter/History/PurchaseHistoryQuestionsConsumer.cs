using System.Diagnostics;
using MassTransit;
using Supermarket.Contracts.History;
using Supermarket.Database.History;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.History;

/// <summary>The writer owns the purchases, so it alone reads them: the API never touches the database.</summary>
public sealed class PurchaseHistoryQuestionsConsumer(IPurchaseHistory history, HistoryMetrics metrics,
    ILogger<PurchaseHistoryQuestionsConsumer> logger)
    : IConsumer<PurchasesAtStore>, IConsumer<PurchasesOfCustomer>
{
    public Task Consume(ConsumeContext<PurchasesAtStore> context) =>
        AnswerAsync(context, "purchases-at-store", history.AtStoreAsync);

    public Task Consume(ConsumeContext<PurchasesOfCustomer> context) =>
        AnswerAsync(context, "purchases-of-customer", history.OfCustomerAsync);

    private async Task AnswerAsync<TQuestion>(ConsumeContext<TQuestion> context, string question,
        Func<TQuestion, CancellationToken, Task<PurchaseHistoryPage>> read)
        where TQuestion : class
    {
        // The read stops when the asker stops waiting: its time to live (expiration less sending, both by the asker's
        // clock) counted from the arrival, so no two machines need agree on the time.
        using var asked = CancellationTokenSource.CreateLinkedTokenSource(context.CancellationToken);
        if (context.ExpirationTime is { } expires && context.SentTime is { } sent)
        {
            asked.CancelAfter(TimeSpan.FromTicks(Math.Max(0, (expires - sent).Ticks)));
        }

        var started = Stopwatch.GetTimestamp();
        PurchaseHistoryPage page;
        try
        {
            page = await read(context.Message, asked.Token);
        }
        catch (OperationCanceledException) when (asked.IsCancellationRequested && !context.CancellationToken.IsCancellationRequested)
        {
            logger.LogWarning("A {Question} question was given up by its asker after {Elapsed}; its read was cancelled",
                question, Stopwatch.GetElapsedTime(started));
            return;
        }

        metrics.Answered(question, Stopwatch.GetElapsedTime(started));
        await context.RespondAsync(page, QuestionDelivery.Transient);
    }
}
