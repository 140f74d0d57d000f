using System.Diagnostics;
using MassTransit;
using Supermarket.Contracts.History;
using Supermarket.Database.History;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.History;

/// <summary>Answers the API's purchase history questions from MySQL: the writer owns the purchases, so it alone
/// reads them, and the API never touches the database.</summary>
public sealed class PurchaseHistoryQuestionsConsumer(IPurchaseHistory history, HistoryMetrics metrics)
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
        var started = Stopwatch.GetTimestamp();
        var page = await read(context.Message, context.CancellationToken);
        metrics.Answered(question, Stopwatch.GetElapsedTime(started));
        await context.RespondAsync(page, QuestionDelivery.Transient);
    }
}
