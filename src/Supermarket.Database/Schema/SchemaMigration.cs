using Dapper;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;
using Supermarket.Database.Purchases;

namespace Supermarket.Database.Schema;

/// <summary>A step of its own, with the schema owner's account; steps that run together take turns through a named
/// lock, so each script runs once (docs/architecture.md, "Guarantees").</summary>
public sealed class SchemaMigration(IOptions<DatabaseOptions> options, ILogger<SchemaMigration> logger)
{
    public const string Command = "migrate";

    private const string MigrationsFolder = "Supermarket.Database.Schema.Migrations.";
    private const int LinesPerDatingEntry = 50_000;

    /// <summary>The migration that dates earlier sales (0010_date_earlier_sales.sql), whose step is C#.</summary>
    private const int DatingEarlierSales = 10;

    public async Task MigrateAsync(TimeSpan databaseWait, TimeSpan lockWait, CancellationToken cancellationToken)
    {
        var connectionString = new MySqlConnectionStringBuilder(options.Value.PooledConnectionString()) { DefaultCommandTimeout = 3600 };
        await using var connection = await OpenAsync(connectionString.ConnectionString, databaseWait, cancellationToken);
        var wait = lockWait;
        // 1: ours; 0: another step held it the whole wait; NULL: an error. Only 1 lets this step migrate.
        if (await connection.ExecuteScalarAsync<int?>("SELECT GET_LOCK('supermarket_schema', @seconds)",
                new { seconds = (int)Math.Ceiling(wait.TotalSeconds) }) != 1)
        {
            throw new InvalidOperationException(
                $"The schema lock 'supermarket_schema' was not free within Writer:SchemaLockWait ({wait}): another migration step is migrating this database. This one stops rather than migrate beside it; run it again once that one has ended.");
        }

        try
        {
            await connection.ExecuteAsync("""
                CREATE TABLE IF NOT EXISTS schema_versions (
                    version    INT          NOT NULL,
                    name       VARCHAR(200) NOT NULL,
                    applied_at DATETIME(6)  NOT NULL,
                    PRIMARY KEY (version)
                ) ENGINE = InnoDB;
                """);
            var applied = (await connection.QueryAsync<int>("SELECT version FROM schema_versions")).ToHashSet();
            foreach (var (version, name) in Migrations().Where(m => !applied.Contains(m.Version)))
            {
                var started = DateTime.UtcNow;
                await connection.ExecuteAsync(new CommandDefinition(Read(name), cancellationToken: cancellationToken));
                if (version == DatingEarlierSales)
                {
                    await DateEarlierSalesAsync(connection, cancellationToken);
                }

                await connection.ExecuteAsync("INSERT INTO schema_versions (version, name, applied_at) VALUES (@version, @name, UTC_TIMESTAMP(6))",
                    new { version, name });
                logger.LogInformation("Applied schema migration {Name} in {Seconds:F1} s", name, (DateTime.UtcNow - started).TotalSeconds);
            }
        }
        finally
        {
            await connection.ExecuteScalarAsync<int>("SELECT RELEASE_LOCK('supermarket_schema')");
        }
    }

    /// <summary>A connection refused is tried again each second; a refused login or any other answer is final.</summary>
    private async Task<MySqlConnection> OpenAsync(string connectionString, TimeSpan databaseWait, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + databaseWait;
        while (true)
        {
            var connection = new MySqlConnection(connectionString);
            try
            {
                await connection.OpenAsync(cancellationToken);
                return connection;
            }
            catch (Exception exception)
            {
                await connection.DisposeAsync();
                if (exception is not MySqlException { ErrorCode: MySqlErrorCode.UnableToConnectToHost } || DateTime.UtcNow >= deadline)
                {
                    throw;
                }

                logger.LogWarning("The database does not answer yet; trying again in 1 s: {Error}", exception.Message);
            }

            await Task.Delay(TimeSpan.FromSeconds(1), cancellationToken);
        }
    }

    public static IReadOnlyList<(int Version, string Name)> Migrations() =>
        [.. typeof(SchemaMigration).Assembly.GetManifestResourceNames()
            .Where(resource => resource.StartsWith(MigrationsFolder, StringComparison.Ordinal))
            .Select(resource => resource[MigrationsFolder.Length..])
            .Select(name => (Version: int.Parse(name[..name.IndexOf('_', StringComparison.Ordinal)], System.Globalization.CultureInfo.InvariantCulture), Name: name))
            .OrderBy(migration => migration.Version)];

    /// <summary>A ledger holding an entry of format 0 holds every purchase stored so far in one (no writer of this
    /// release ran yet): their sums by day become dating entries, appended under the head's lock as any entry.</summary>
    private async Task DateEarlierSalesAsync(MySqlConnection connection, CancellationToken cancellationToken)
    {
        if (await connection.ExecuteScalarAsync<long>("SELECT EXISTS (SELECT 1 FROM sales_ledger WHERE LENGTH(sales) > 0 AND LEFT(sales, 1) <> x'00')") == 0)
        {
            return;
        }

        var started = DateTime.UtcNow;
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        var lines = new List<SaleLine>(LinesPerDatingEntry);
        var entries = new List<byte[]>();
        await foreach (var (store, item, day, units) in connection.QueryUnbufferedAsync<(int, int, DateTime, decimal)>("""
            SELECT p.store_id, l.item_id, p.purchase_date, SUM(l.quantity)
            FROM purchases p, JSON_TABLE(p.items, '$[*]' COLUMNS (item_id INT PATH '$[0]', quantity INT PATH '$[1]')) AS l
            GROUP BY p.store_id, l.item_id, p.purchase_date
            """, transaction: transaction).WithCancellation(cancellationToken))
        {
            lines.Add(new SaleLine(store, item, (long)units, DateOnly.FromDateTime(day)));
            if (lines.Count == LinesPerDatingEntry)
            {
                entries.Add(SalesLedgerEntry.EncodeDating(lines));
                lines.Clear();
            }
        }

        entries.Add(SalesLedgerEntry.EncodeDating(lines));
        var dating = entries.Where(sales => sales.Length > 0).ToList();
        foreach (var sales in dating)
        {
            await connection.ExecuteAsync(SalesLedgerAppend.Sql, new { purchases = 0, sales }, transaction);
        }

        await transaction.CommitAsync(cancellationToken);
        logger.LogInformation("Dated the sales stored before ledger entries carried their day: {Entries} dating entries in {Seconds:F1} s",
            dating.Count, (DateTime.UtcNow - started).TotalSeconds);
    }

    private static string Read(string name)
    {
        using var stream = typeof(SchemaMigration).Assembly.GetManifestResourceStream(MigrationsFolder + name)
            ?? throw new InvalidOperationException($"{name} is not embedded in Supermarket.Database.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
