using System.Diagnostics;
using MassTransit;
using Supermarket.Contracts.History;
using Supermarket.Database.History;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.History;

/// <summary>Answers the API's purchase history questions from MySQL: the writer owns the purchases, so it alone
/// reads them, and the API never touches the database.</summary>
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
        // The asker waits until the request expires (its time-to-live is the API's HistoryQuestions:QueryTimeout):
        // past that nobody reads the answer, so the read stops there (MySqlConnector cancels the statement running).
        // The time to live is the asker's expiration less its sending, both by its clock, counted from the arrival:
        // no two machines need agree on the time (a writer whose clock ran ahead gave up every question at once).
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
            // Not a fault: the question is simply no longer asked.
            logger.LogWarning("A {Question} question was given up by its asker after {Elapsed}; its read was cancelled",
                question, Stopwatch.GetElapsedTime(started));
            return;
        }

        metrics.Answered(question, Stopwatch.GetElapsedTime(started));
        await context.RespondAsync(page, QuestionDelivery.Transient);
    }
}
