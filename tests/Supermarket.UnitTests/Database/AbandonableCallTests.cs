using Microsoft.Extensions.Logging.Abstractions;
using Supermarket.Database;

namespace Supermarket.UnitTests.Database;

/// <summary>The contract the workers' message handlers rely on when the database does not answer (see
/// AbandonableCall): a call that ignores its token, and whose cancellation itself blocks, as MySql.Data's does.</summary>
public sealed class AbandonableCallTests
{
    // A bound on a wait that must not happen, so a regression fails instead of hanging the run; not a speed target.
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task A_cancelled_caller_leaves_at_once_and_the_canceller_is_not_held_by_the_calls_cancellation()
    {
        var database = new TaskCompletionSource();
        var started = new TaskCompletionSource();
        var callCancelled = new TaskCompletionSource();
        using var delivery = new CancellationTokenSource();

        // Started off the test's synchronization context, as a message handler is: the caller's continuation then runs
        // on the thread that cancels, before the call's own cancellation (a race that once dropped the latter).
        var caller = Task.Run(() => AbandonableCall.RunAsync(token =>
        {
            token.Register(() =>
            {
                callCancelled.SetResult();
                database.Task.Wait();
            });
            started.SetResult();
            database.Task.Wait();
            return Task.FromResult(1);
        }, NullLogger.Instance, delivery.Token));
        await started.Task.WaitAsync(Bound);

        await Task.Run(delivery.Cancel).WaitAsync(Bound);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => caller.WaitAsync(Bound));
        await callCancelled.Task.WaitAsync(Bound);
        database.SetResult();
    }

    [Fact]
    public async Task A_call_that_ends_gives_its_result_or_its_failure()
    {
        Assert.Equal(7, await AbandonableCall.RunAsync(_ => Task.FromResult(7), NullLogger.Instance, CancellationToken.None));
        await Assert.ThrowsAsync<InvalidOperationException>(() =>
            AbandonableCall.RunAsync<int>(_ => throw new InvalidOperationException("refused"), NullLogger.Instance, CancellationToken.None));
    }
}
