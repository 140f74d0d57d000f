using System.Threading.Channels;
using MassTransit;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;

namespace Supermarket.Api.Insights;

/// <summary>The sales questions on their way to one shard: those asked while Insights:QuestionMessagesInFlight
/// messages are on their way go together in the next, so a question costs a share of a message; a lone one goes at
/// once, each with its own deadline. Upgrade the aggregators first (docs/operations.md, "Sales shards").</summary>
public sealed class ShardQuestions : IAsyncDisposable
{
    private readonly IRequestClient<SalesQuestions> _client;
    private readonly InsightOptions _options;
    private readonly Channel<Question> _waiting = Channel.CreateUnbounded<Question>(new UnboundedChannelOptions { SingleReader = true });
    private readonly CancellationTokenSource _stopping = new();
    private readonly SemaphoreSlim _slots;
    private readonly Task _sending;

    public ShardQuestions(IRequestClient<SalesQuestions> client, InsightOptions options)
    {
        (_client, _options) = (client, options);
        // Not disposed: messages still on their way at shutdown give their slot back after the loop has ended.
        _slots = new SemaphoreSlim(options.QuestionMessagesInFlight);
        _sending = Task.Run(SendAsync);
    }

    public async Task<TopItemsAtStore> AskAsync(TopItemsForStore question, CancellationToken deadline)
    {
        var asked = new Question(question, null, deadline);
        _waiting.Writer.TryWrite(asked);
        return (await asked.Answer.Task.WaitAsync(deadline)).TopItems[asked.Index];
    }

    public async Task<TopStoresOfItem> AskAsync(TopStoresForItem question, CancellationToken deadline)
    {
        var asked = new Question(null, question, deadline);
        _waiting.Writer.TryWrite(asked);
        return (await asked.Answer.Task.WaitAsync(deadline)).TopStores[asked.Index];
    }

    private async Task SendAsync()
    {
        var reader = _waiting.Reader;
        try
        {
            while (await reader.WaitToReadAsync(_stopping.Token))
            {
                await _slots.WaitAsync(_stopping.Token);
                var together = new List<Question>();
                while (together.Count < _options.MaxQuestionsPerMessage && reader.TryRead(out var question))
                {
                    // One whose asker has gone is not sent.
                    if (!question.Deadline.IsCancellationRequested)
                    {
                        together.Add(question);
                    }
                }

                if (together.Count == 0)
                {
                    _slots.Release();
                    continue;
                }

                _ = AskTogetherAsync(together).ContinueWith(_ => _slots.Release(), TaskScheduler.Default);
            }
        }
        catch (OperationCanceledException) when (_stopping.IsCancellationRequested)
        {
        }
    }

    private async Task AskTogetherAsync(List<Question> together)
    {
        var (topItems, topStores) = (new List<TopItemsForStore>(), new List<TopStoresForItem>());
        foreach (var question in together)
        {
            if (question.TopItems is { } items)
            {
                question.Index = topItems.Count;
                topItems.Add(items);
            }
            else
            {
                question.Index = topStores.Count;
                topStores.Add(question.TopStores!);
            }
        }

        // Bounded by the deadline of the question that waits longest; each of the others gives up at its own.
        using var allGaveUp = new CancellationTokenSource();
        var waiting = together.Count;
        var registrations = together.Select(question => question.Deadline.Register(() =>
        {
            if (Interlocked.Decrement(ref waiting) == 0)
            {
                allGaveUp.Cancel();
            }
        })).ToList();
        try
        {
            var answer = await _client.GetResponse<SalesAnswers>(new SalesQuestions([.. topItems], [.. topStores]),
                QuestionDelivery.Transient, allGaveUp.Token, RequestTimeout.After(ms: (int)_options.QueryTimeout.TotalMilliseconds));
            foreach (var question in together)
            {
                question.Answer.TrySetResult(answer.Message);
            }
        }
        catch (Exception exception)
        {
            foreach (var question in together)
            {
                question.Answer.TrySetException(exception);
            }
        }
        finally
        {
            foreach (var registration in registrations)
            {
                await registration.DisposeAsync();
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        _waiting.Writer.TryComplete();
        await _stopping.CancelAsync();
        await _sending;
        _stopping.Dispose();
    }

    private sealed class Question(TopItemsForStore? topItems, TopStoresForItem? topStores, CancellationToken deadline)
    {
        public TopItemsForStore? TopItems { get; } = topItems;

        public TopStoresForItem? TopStores { get; } = topStores;

        public CancellationToken Deadline { get; } = deadline;

        /// <summary>Where its answer is among its message's answers of its kind.</summary>
        public int Index { get; set; }

        public TaskCompletionSource<SalesAnswers> Answer { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
    }
}
