using System.Globalization;
using System.Text;
using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Database;
using Supermarket.SalesAggregator.Questions;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// Reads the Purchases writer's sales ledger: the aggregator's whole view of the writer's database, and read-only
/// (README, "Guarantees": the contract between the two).
/// </summary>
public sealed class SalesLedgerReader(IOptions<DatabaseOptions> options, IOptions<AggregatorOptions> aggregator)
{
    /// <summary>How many gaps one read asks about, oldest first; more wait for the next read.</summary>
    private const int MaxGapsPerRead = 64;

    private readonly string _connectionString = options.Value.PooledConnectionString();
    private readonly int _pageSize = aggregator.Value.LedgerPageSize;

    public async Task<Guid> LedgerIdAsync(CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        var id = await connection.QuerySingleAsync<byte[]>(new CommandDefinition("SELECT id FROM ledger_identity", cancellationToken: cancellationToken));
        return new Guid(id);
    }

    /// <summary>The entries after <see cref="AppliedEntries.Max"/> (a page of them, in seq order) and those that
    /// have since filled its gaps.</summary>
    public async Task<IReadOnlyList<LedgerEntry>> ReadAfterAsync(AppliedEntries applied, CancellationToken cancellationToken)
    {
        var sql = new StringBuilder("SELECT seq, stored_at AS storedAt, purchases, sales FROM sales_ledger WHERE seq > @max ORDER BY seq LIMIT @page");
        var parameters = new DynamicParameters(new { max = applied.Max, page = _pageSize });
        var gaps = applied.Gaps.Take(MaxGapsPerRead).ToList();
        if (gaps.Count > 0)
        {
            sql.Insert(0, '(').Append(") UNION ALL (SELECT seq, stored_at AS storedAt, purchases, sales FROM sales_ledger WHERE ");
            for (var i = 0; i < gaps.Count; i++)
            {
                var n = i.ToString(CultureInfo.InvariantCulture);
                sql.Append(i == 0 ? "" : " OR ").Append($"seq BETWEEN @from{n} AND @to{n}");
                parameters.Add($"from{n}", gaps[i].From);
                parameters.Add($"to{n}", gaps[i].To);
            }

            sql.Append(')');
        }

        await using var connection = new MySqlConnection(_connectionString);
        var entries = await connection.QueryAsync<LedgerEntry>(new CommandDefinition(sql.ToString(), parameters, cancellationToken: cancellationToken));
        return entries.AsList();
    }
}

/// <summary>One row of the sales ledger: the sales of the purchases one writer transaction stored.</summary>
public sealed record LedgerEntry(ulong Seq, DateTime StoredAt, int Purchases, byte[] Sales);
