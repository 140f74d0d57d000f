using Supermarket.LoadTest.Chaos;

namespace Supermarket.LoadTest.Tests.Chaos;

/// <summary>Gives the answers in order, one per question (null: none came); once they are all given,
/// <see cref="Done"/> completes and every later question goes unanswered.</summary>
public sealed class ScriptedAnswers(params SalesAnswerSeen?[] script) : ISalesAnswers
{
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _next;

    public Task Done => _done.Task;

    public Task<SalesAnswerSeen?> AskAsync(int store, CancellationToken cancellationToken)
    {
        if (_next == script.Length)
        {
            return Task.FromResult<SalesAnswerSeen?>(null);
        }

        var answer = script[_next++];
        Assert.True(answer is null || answer.Store == store, $"asked store {store}, the script answers store {answer?.Store}");
        if (_next == script.Length)
        {
            _done.TrySetResult();
        }

        return Task.FromResult(answer);
    }
}
