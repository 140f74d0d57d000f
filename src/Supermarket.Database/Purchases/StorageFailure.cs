using System.Data.Common;

namespace Supermarket.Database.Purchases;

public static class StorageFailure
{
    /// <summary>SQLSTATE 22 or 23: MySQL refused the purchases themselves, which no retry changes. Anything else is the
    /// database away, worth retrying until it is back.</summary>
    public static bool IsUnstorable(Exception exception) =>
        exception is DbException { SqlState: { } state }
        && (state.StartsWith("22", StringComparison.Ordinal) || state.StartsWith("23", StringComparison.Ordinal));
}
