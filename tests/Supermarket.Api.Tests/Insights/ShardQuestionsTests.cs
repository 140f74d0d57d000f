using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.Api.Insights;
using Supermarket.Contracts.Sales;

namespace Supermarket.Api.Tests.Insights;

/// <summary>Questions on their way to a shard, on MassTransit's in-memory test harness: a shard that answers each
/// message as it is told to, counting the messages it got.</summary>
public sealed class ShardQuestionsTests : IAsyncLifetime
{
    private static readonly TimeSpan LongDeadline = TimeSpan.FromMinutes(1);
    private readonly Shard _shard = new();
    private ServiceProvider _services = null!;

    private ITestHarness Harness => _services.GetRequiredService<ITestHarness>();

    public async ValueTask InitializeAsync()
    {
        _services = new ServiceCollection()
            .AddSingleton(_shard)
            .AddMassTransitTestHarness(bus => bus.AddConsumer<ShardConsumer>().Endpoint(endpoint => endpoint.Name = "shard"))
            .BuildServiceProvider(validateScopes: true);
        await Harness.Start();
    }

    private ShardQuestions Questions(int messagesInFlight) =>
        new(Harness.Bus.CreateRequestClient<SalesQuestions>(new Uri("queue:shard")),
            new InsightOptions { QuestionMessagesInFlight = messagesInFlight, QueryTimeout = LongDeadline });

    [Fact]
    public async Task A_lone_question_goes_at_once_and_gets_its_own_answer()
    {
        _shard.AnswerAtOnce();
        await using var questions = Questions(messagesInFlight: 1);
        using var deadline = new CancellationTokenSource(LongDeadline);

        var answer = await questions.AskAsync(new TopStoresForItem(ItemId: 7, Count: 5), deadline.Token);

        Assert.Equal([new StoreSales(7, 1)], answer.Stores);
        Assert.Equal(1, _shard.Messages);
    }

    [Fact]
    public async Task Questions_asked_while_a_message_is_on_its_way_go_together_in_the_next_each_getting_its_own_answer()
    {
        await using var questions = Questions(messagesInFlight: 1);
        using var deadline = new CancellationTokenSource(LongDeadline);
        var first = questions.AskAsync(new TopItemsForStore(StoreId: 1, Count: 10), deadline.Token);
        await _shard.Arrived(1);

        // The shard holds the first message: these wait, then travel as one.
        var items = Enumerable.Range(2, 5).Select(store => questions.AskAsync(new TopItemsForStore(store, 10), deadline.Token)).ToList();
        var stores = Enumerable.Range(100, 3).Select(item => questions.AskAsync(new TopStoresForItem(item, 5), deadline.Token)).ToList();
        await Task.Delay(TimeSpan.FromMilliseconds(200));
        _shard.AnswerAtOnce();

        Assert.Equal(1, (await first).StoreId);
        Assert.Equal([2, 3, 4, 5, 6], (await Task.WhenAll(items)).Select(answer => answer.StoreId));
        Assert.Equal([100, 101, 102], (await Task.WhenAll(stores)).Select(answer => answer.ItemId));
        Assert.Equal(2, _shard.Messages);
    }

    [Fact]
    public async Task A_question_whose_deadline_passes_gives_up_while_the_others_of_its_message_are_answered()
    {
        await using var questions = Questions(messagesInFlight: 1);
        using var deadline = new CancellationTokenSource(LongDeadline);
        using var shortDeadline = new CancellationTokenSource();
        var first = questions.AskAsync(new TopItemsForStore(StoreId: 1, Count: 10), deadline.Token);
        await _shard.Arrived(1);
        var hurried = questions.AskAsync(new TopItemsForStore(StoreId: 2, Count: 10), shortDeadline.Token);
        var patient = questions.AskAsync(new TopItemsForStore(StoreId: 3, Count: 10), deadline.Token);
        await Task.Delay(TimeSpan.FromMilliseconds(100));

        await shortDeadline.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => hurried);
        _shard.AnswerAtOnce();

        Assert.Equal(1, (await first).StoreId);
        Assert.Equal(3, (await patient).StoreId);
    }

    public async ValueTask DisposeAsync()
    {
        _shard.AnswerAtOnce();
        await Harness.Stop();
        await _services.DisposeAsync();
    }

    /// <summary>Answers every question with its own store or item, once told to; counts the messages.</summary>
    public sealed class Shard
    {
        private readonly TaskCompletionSource _answer = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _messages;

        public int Messages => Volatile.Read(ref _messages);

        public void AnswerAtOnce() => _answer.TrySetResult();

        public async Task<SalesAnswers> AnswerAsync(SalesQuestions questions)
        {
            Interlocked.Increment(ref _messages);
            await _answer.Task;
            return new SalesAnswers(
                [.. questions.TopItems.Select(question => new TopItemsAtStore(question.StoreId, [new ItemSales(question.StoreId, 1)], 1))],
                [.. questions.TopStores.Select(question => new TopStoresOfItem(question.ItemId, [new StoreSales(question.ItemId, 1)], 1))]);
        }

        public async Task Arrived(int messages)
        {
            using var patience = new CancellationTokenSource(LongDeadline);
            while (Messages < messages)
            {
                await Task.Delay(10, patience.Token);
            }
        }
    }

    public sealed class ShardConsumer(Shard shard) : IConsumer<SalesQuestions>
    {
        public async Task Consume(ConsumeContext<SalesQuestions> context) => await context.RespondAsync(await shard.AnswerAsync(context.Message));
    }
}
