using Supermarket.LoadTest.Chaos;

namespace Supermarket.LoadTest.Tests.Chaos;

/// <summary>Gives the replies in order, one per question; once they are all given, <see cref="Done"/> completes and
/// every later question gets <see cref="Afterwards"/> (by default no response).</summary>
public sealed class ScriptedAnswers(params SalesReply[] script) : ISalesAnswers
{
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _next;

    public Task Done => _done.Task;

    /// <summary>The reply to each question asked once the script is done, by store.</summary>
    public Func<int, SalesReply> Afterwards { get; init; } = _ => SalesReply.Unanswered(SalesReply.NoResponse);

    /// <summary>An answer at <paramref name="store"/>, counted through ledger entry <paramref name="countedThrough"/>.</summary>
    public static SalesReply Answer(int store, long countedThrough, long units) =>
        SalesReply.Answered(new SalesAnswerSeen(store, countedThrough, units));

    /// <summary>No answer: the aggregator did not answer in time (504; 503 with shards).</summary>
    public static SalesReply Refused(int status = 504) => SalesReply.Unanswered(status);

    public Task<SalesReply> AskAsync(int store, CancellationToken cancellationToken)
    {
        if (_next == script.Length)
        {
            return Task.FromResult(Afterwards(store));
        }

        var reply = script[_next++];
        Assert.True(reply.Answer is null || reply.Answer.Store == store, $"asked store {store}, the script answers store {reply.Answer?.Store}");
        if (_next == script.Length)
        {
            _done.TrySetResult();
        }

        return Task.FromResult(reply);
    }
}
