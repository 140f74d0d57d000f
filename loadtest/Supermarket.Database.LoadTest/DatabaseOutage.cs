using System.Data.Common;
using System.Diagnostics;
using System.Net.Sockets;

namespace Supermarket.Database.LoadTest;

/// <summary>Which failures of a reading say the database is away (restarting, stopped, unreachable) rather than that
/// the reader is wrong: the load test's live view and report show those as "not measured", and its verification as a
/// failed check, instead of the run dying without a report.</summary>
public static class DatabaseOutage
{
    /// <summary>MySqlConnector raises a MySqlException (a DbException) for what fails while it connects, but lets the
    /// socket's own exceptions through while it sends a query or reads rows: a server restarted mid-query shows as a
    /// SocketException, an IOException, or an EndOfStreamException (an IOException).</summary>
    public static bool Explains(Exception exception) => exception is DbException or IOException or SocketException;

    /// <summary>A reading tried again, a second apart, while the database is away, for at most
    /// <paramref name="patience"/>; any other failure, or one past it, is thrown.</summary>
    /// <param name="away">Told of each failure that is tried again.</param>
    public static async Task<T> WaitOutAsync<T>(Func<Task<T>> read, TimeSpan patience, Action<Exception> away)
    {
        var started = Stopwatch.GetTimestamp();
        while (true)
        {
            try
            {
                return await read();
            }
            catch (Exception exception) when (Explains(exception) && Stopwatch.GetElapsedTime(started) < patience)
            {
                away(exception);
                await Task.Delay(RetryInterval);
            }
        }
    }

    private static readonly TimeSpan RetryInterval = TimeSpan.FromSeconds(1);
}
