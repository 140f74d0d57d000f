using Microsoft.Extensions.Logging;

namespace Supermarket.Database;

/// <summary>
/// Lets a message handler go as soon as its delivery is cancelled, whatever its database call is doing.
/// </summary>
/// <remarks>
/// MySql.Data 8.0.16 (the stand-in for MySqlConnector, absent here) runs its "async" commands synchronously, and
/// cancels one by opening a new connection to send KILL QUERY, on the thread that cancels. MassTransit cancels the
/// deliveries in progress from RabbitMQ's shutdown handler when the broker drops a connection, and RabbitMQ's client
/// closes that connection only once every delivery in progress has ended. Against a database that does not answer,
/// both waited for it: the worker did not reconnect, and its queue had no consumer, until the database answered or
/// the command timed out (docs/reliability.md, ConnectionLossTests).
/// So the call runs on a thread of its own, it is cancelled from another, and its caller leaves at once. An
/// abandoned call ends when the database answers, kills it or times it out; only its failure is logged. What it did
/// is safe either way: the broker delivers the message again, a purchase stored twice is stored once, and a question
/// is answered by the next attempt.
/// </remarks>
public static class AbandonableCall
{
    public static async Task<T> RunAsync<T>(Func<CancellationToken, Task<T>> call, ILogger logger, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var callCancellation = new CancellationTokenSource();
        var running = Task.Run(() => call(callCancellation.Token), CancellationToken.None);
        try
        {
            var result = await running.WaitAsync(cancellationToken);
            callCancellation.Dispose();
            return result;
        }
        catch (OperationCanceledException) when (!running.IsCompleted)
        {
            // Forwarded here, not from a registration on the caller's token: this continuation can run on the
            // cancelling thread before such a registration's turn, and leaving would then unregister it unrun.
            // CancelAsync runs the call's cancellation on the thread pool, so the caller is not held by it. The source
            // is left to the garbage collector (it has no timer to release) while that may still run.
            _ = callCancellation.CancelAsync();
            _ = running.ContinueWith(
                abandoned => logger.LogWarning(abandoned.Exception?.InnerException, "A database call abandoned with its cancelled message failed"),
                CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
            throw;
        }
    }
}
