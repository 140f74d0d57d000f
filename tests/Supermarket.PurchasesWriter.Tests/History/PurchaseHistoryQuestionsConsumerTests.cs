using MassTransit;
using Supermarket.Contracts.History;
using Supermarket.Contracts.Purchases;

namespace Supermarket.PurchasesWriter.Tests.History;

/// <summary>The API's purchase history questions, answered as the API asks them (request/response): each question
/// reaches the read it names, and its page comes back whole, with where the next one starts.</summary>
public sealed class PurchaseHistoryQuestionsConsumerTests
{
    private static readonly DateOnly Day = new(2021, 3, 4);

    [Fact]
    public async Task A_stores_day_is_answered_with_its_page_and_where_the_next_one_starts()
    {
        var history = new HistoryInMemory();
        var question = new PurchasesAtStore(StoreId: 5, Day, After: null, PageSize: 1);
        var page = new PurchaseHistoryPage([Stored(store: 5, customer: 5001)], new HistoryPosition(Day, DateTimeOffset.UnixEpoch, Guid.CreateVersion7()));
        history.Answer(question, page);
        await using var writer = await WriterHarness.StartAsync(history: history);

        var answer = await writer.Bus.GetRequestClient<PurchasesAtStore>().GetResponse<PurchaseHistoryPage>(question);

        Assert.Equal(page.Purchases.Single().PurchaseId, answer.Message.Purchases.Single().PurchaseId);
        Assert.Equal(page.Next, answer.Message.Next);
    }

    [Fact]
    public async Task A_customers_purchases_are_answered_from_the_customers_read()
    {
        var history = new HistoryInMemory();
        var question = new PurchasesOfCustomer(CustomerId: 5001, From: Day, To: Day, After: null, PageSize: 10);
        history.Answer(question, new PurchaseHistoryPage([Stored(store: 5, customer: 5001), Stored(store: 6, customer: 5001)], Next: null));
        history.Answer(new PurchasesAtStore(5, Day, After: null, PageSize: 10), new PurchaseHistoryPage([Stored(store: 5, customer: 9)], Next: null));
        await using var writer = await WriterHarness.StartAsync(history: history);

        var answer = await writer.Bus.GetRequestClient<PurchasesOfCustomer>().GetResponse<PurchaseHistoryPage>(question);

        Assert.Equal([5, 6], answer.Message.Purchases.Select(p => p.StoreId));
        Assert.All(answer.Message.Purchases, purchase => Assert.Equal(5001, purchase.CustomerId));
        Assert.Null(answer.Message.Next);
    }

    [Fact]
    public async Task A_question_is_answered_by_a_writer_whose_clock_runs_ahead_of_the_askers()
    {
        var history = new HistoryInMemory();
        var question = new PurchasesAtStore(StoreId: 5, Day, After: null, PageSize: 10);
        history.Answer(question, new PurchaseHistoryPage([Stored(store: 5, customer: 5001)], Next: null));
        // A minute ahead: far beyond the question's 10 s, which is what it has left by the asker's clock.
        await using var writer = await WriterHarness.StartAsync(history: history, clock: new ClockAhead(TimeSpan.FromMinutes(1)));

        var answer = await writer.Bus.GetRequestClient<PurchasesAtStore>().GetResponse<PurchaseHistoryPage>(question, timeout: RequestTimeout.After(s: 10));

        Assert.Single(answer.Message.Purchases);
    }

    private sealed class ClockAhead(TimeSpan ahead) : TimeProvider
    {
        public override DateTimeOffset GetUtcNow() => base.GetUtcNow() + ahead;
    }

    private static StoredPurchase Stored(int store, int customer) =>
        new(Guid.CreateVersion7(), store, customer, Day, DateTimeOffset.UnixEpoch, [new PurchaseLine(7, 2)]);
}
