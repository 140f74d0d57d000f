using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;

namespace Supermarket.Database.Ledger;

/// <summary>The feed reads at the questions' rate while they are asked, so a read is one prepared statement on a
/// connection kept open, not a pooled connection's reset and two statements.</summary>
public sealed class SalesLedgerReader(IOptions<DatabaseOptions> options, int pageSize) : ISalesLedger, IAsyncDisposable
{
    // One statement, so one InnoDB snapshot: a restore cannot fall between the entry read from and the page after it.
    private const string ReadFromSql = """
        (SELECT seq, stored_at, 0, NULL FROM sales_ledger WHERE seq = @seq)
        UNION ALL
        (SELECT seq, stored_at, purchases, sales FROM sales_ledger WHERE seq > @seq ORDER BY seq LIMIT @page)
        """;

    private readonly string _connectionString = options.Value.PooledConnectionString();
    private MySqlConnection? _connection;
    private MySqlCommand? _readFrom;

    public async Task<LedgerIdentity> IdentityAsync(CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        var (id, gaplessAfter) = await connection.QuerySingleAsync<(byte[], ulong)>(new CommandDefinition(
            "SELECT id, gapless_after FROM ledger_identity", cancellationToken: cancellationToken));
        return new LedgerIdentity(new Guid(id), (long)gaplessAfter);
    }

    public async Task<LedgerRead> ReadFromAsync(long seq, CancellationToken cancellationToken)
    {
        try
        {
            var command = await ReadFromCommandAsync(cancellationToken);
            command.Parameters[0].Value = seq;
            DateTime? storedAt = null;
            var after = new List<LedgerEntry>();
            await using (var rows = await command.ExecuteReaderAsync(cancellationToken))
            {
                while (await rows.ReadAsync(cancellationToken))
                {
                    var rowSeq = rows.GetUInt64(0);
                    if ((long)rowSeq == seq)
                    {
                        storedAt = rows.GetDateTime(1);
                        continue;
                    }

                    after.Add(new LedgerEntry(rowSeq, rows.GetDateTime(1), rows.GetInt32(2), (byte[])rows.GetValue(3)));
                }
            }

            // UNION ALL keeps each part's order in practice, but promises none.
            after.Sort((a, b) => a.Seq.CompareTo(b.Seq));
            return new LedgerRead(storedAt, after);
        }
        catch (Exception)
        {
            await DropConnectionAsync();
            throw;
        }
    }

    private async Task<MySqlCommand> ReadFromCommandAsync(CancellationToken cancellationToken)
    {
        if (_readFrom is { } prepared)
        {
            return prepared;
        }

        _connection = new MySqlConnection(_connectionString);
        await _connection.OpenAsync(cancellationToken);
        var command = new MySqlCommand(ReadFromSql, _connection);
        command.Parameters.Add("@seq", MySqlDbType.Int64);
        command.Parameters.AddWithValue("@page", pageSize);
        await command.PrepareAsync(cancellationToken);
        return _readFrom = command;
    }

    private async Task DropConnectionAsync()
    {
        if (_readFrom is { } command)
        {
            await command.DisposeAsync();
        }

        if (_connection is { } connection)
        {
            await connection.DisposeAsync();
        }

        (_readFrom, _connection) = (null, null);
    }

    public ValueTask DisposeAsync() => new(DropConnectionAsync());
}

public sealed record LedgerEntry(ulong Seq, DateTime StoredAt, int Purchases, byte[] Sales);
