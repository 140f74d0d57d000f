extern alias Writer;

using Dapper;
using MySqlConnector;
using Writer::Supermarket.PurchasesWriter;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>Writers that start together migrate one at a time: one that cannot get the schema lock must not migrate
/// beside the one holding it (two back-fills of the ledger would count every old sale twice).</summary>
[Collection(nameof(SystemCollection))]
public sealed class SchemaMigrationTests
{
    private const string Database = TestSettings.DatabaseName + "_lock";

    [Fact]
    public async Task A_writer_that_cannot_get_the_schema_lock_stops_without_migrating()
    {
        await using (var server = new MySqlConnection(TestSettings.ConnectionString(database: "information_schema")))
        {
            await server.ExecuteAsync($"DROP DATABASE IF EXISTS {Database}; CREATE DATABASE {Database}");
        }

        // Another writer, in the middle of its migration.
        await using var migrating = new MySqlConnection(TestSettings.ConnectionString());
        await migrating.OpenAsync();
        Assert.Equal(1, await migrating.ExecuteScalarAsync<int>("SELECT GET_LOCK('supermarket_schema', 0)"));

        var settings = TestSettings.For();
        settings["Database:ConnectionString"] = TestSettings.DatabaseAt(Database);
        settings["Writer:SchemaLockWait"] = "00:00:02";
        var refused = await Assert.ThrowsAnyAsync<InvalidOperationException>(
            () => SupermarketSystem.StartWorkerAsync(Worker.Writer, settings));

        Assert.Contains("supermarket_schema", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, await TestDatabase.CountAsync(
            "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = @schema", new { schema = Database }));
    }
}
