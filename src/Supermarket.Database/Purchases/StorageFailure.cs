using System.Data.Common;

namespace Supermarket.Database.Purchases;

/// <summary>What a failed write says: about the purchases, or about the database.</summary>
public static class StorageFailure
{
    /// <summary>
    /// True when MySQL refused the purchases themselves (SQLSTATE class 22, a data exception, or 23, an integrity
    /// constraint): as they are, they can never be stored, and retrying them longer changes nothing. Anything else (the
    /// server down, restarting or unreachable, a connection lost, a lock wait, a deadlock, a timeout) says the
    /// database is away, and the write is worth retrying until it is back, however long that takes.
    /// </summary>
    public static bool IsUnstorable(Exception exception) =>
        exception is DbException { SqlState: { } state }
        && (state.StartsWith("22", StringComparison.Ordinal) || state.StartsWith("23", StringComparison.Ordinal));
}
