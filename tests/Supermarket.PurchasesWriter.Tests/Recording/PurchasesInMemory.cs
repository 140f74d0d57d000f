using System.Collections.Concurrent;
using System.Data.Common;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.Purchases;

namespace Supermarket.PurchasesWriter.Tests.Recording;

/// <summary>
/// The purchases table in memory, each purchase once, as <see cref="PurchaseStore"/> keeps MySQL's; it can refuse
/// purchases as MySQL refuses bad data (a data exception, SQLSTATE 22) or be away for a number of writes (a connection
/// refused), and remembers every write it was asked for.
/// </summary>
public sealed class PurchasesInMemory : IPurchaseStore
{
    private readonly ConcurrentDictionary<Guid, PurchaseRecorded> _stored = new();
    private readonly ConcurrentQueue<Guid[]> _writes = new();
    private readonly HashSet<Guid> _refused = [];
    private int _awayFor;

    public IReadOnlyCollection<PurchaseRecorded> Stored => [.. _stored.Values];

    /// <summary>Every write asked for, with the ids it held, whatever became of it.</summary>
    public IReadOnlyCollection<Guid[]> Writes => [.. _writes];

    public void Refuse(Guid purchaseId) => _refused.Add(purchaseId);

    public void BeAwayFor(int writes) => _awayFor = writes;

    /// <summary>Rolled back: nothing kept, not even the write asked for.</summary>
    public Task RehearseAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken) => Task.CompletedTask;

    public Task<int> WriteAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        _writes.Enqueue([.. purchases.Select(p => p.PurchaseId)]);
        if (Interlocked.Decrement(ref _awayFor) >= 0)
        {
            throw new TimeoutException("Connect Timeout expired (the database is away)");
        }

        if (purchases.Any(p => _refused.Contains(p.PurchaseId)))
        {
            throw new RefusedByMySql("22007", "Incorrect date value");
        }

        return Task.FromResult(purchases.Count(p => _stored.TryAdd(p.PurchaseId, p)));
    }

    private sealed class RefusedByMySql(string sqlState, string message) : DbException(message)
    {
        public override string SqlState => sqlState;
    }
}
