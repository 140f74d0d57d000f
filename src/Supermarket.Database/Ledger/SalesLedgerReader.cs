using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;

namespace Supermarket.Database.Ledger;

/// <summary>
/// Reads the Purchases writer's sales ledger: the aggregator's whole view of the writer's database, and read-only
/// (README, "Guarantees": the contract between the two).
/// </summary>
/// <param name="pageSize">Entries a read returns at most (the aggregator's Aggregator:LedgerPageSize).</param>
public sealed class SalesLedgerReader(IOptions<DatabaseOptions> options, int pageSize) : ISalesLedger
{
    private readonly string _connectionString = options.Value.PooledConnectionString();

    public async Task<LedgerIdentity> IdentityAsync(CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        var (id, gaplessAfter) = await connection.QuerySingleAsync<(byte[], ulong)>(new CommandDefinition(
            "SELECT id, gapless_after FROM ledger_identity", cancellationToken: cancellationToken));
        return new LedgerIdentity(new Guid(id), (long)gaplessAfter);
    }

    public async Task<DateTime?> StoredAtAsync(long seq, CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        return await connection.QuerySingleOrDefaultAsync<DateTime?>(new CommandDefinition(
            "SELECT stored_at FROM sales_ledger WHERE seq = @seq", new { seq }, cancellationToken: cancellationToken));
    }

    public async Task<IReadOnlyList<LedgerEntry>> ReadAfterAsync(long seq, CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        var entries = await connection.QueryAsync<LedgerEntry>(new CommandDefinition(
            "SELECT seq, stored_at AS storedAt, purchases, sales FROM sales_ledger WHERE seq > @seq ORDER BY seq LIMIT @page",
            new { seq, page = pageSize }, cancellationToken: cancellationToken));
        return entries.AsList();
    }
}

/// <summary>One row of the sales ledger: the sales of the purchases one writer transaction stored.</summary>
public sealed record LedgerEntry(ulong Seq, DateTime StoredAt, int Purchases, byte[] Sales);
