using Dapper;
using MySqlConnector;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>The schema changes only in the migration step, as the schema owner. Steps that run together migrate one at
/// a time: one that cannot get the schema lock must not migrate beside the one holding it (two back-fills of the ledger
/// would count every old sale twice). A writer on a schema its migrations are not all applied to does not start.</summary>
[Collection(nameof(SystemCollection))]
public sealed class SchemaMigrationTests
{
    [Fact]
    public async Task A_migration_step_that_cannot_get_the_schema_lock_stops_without_migrating()
    {
        var database = await NewDatabaseAsync("lock");

        // Another step, in the middle of its migration.
        await using var migrating = new MySqlConnection(TestSettings.OwnerConnectionString());
        await migrating.OpenAsync();
        Assert.Equal(1, await migrating.ExecuteScalarAsync<int>("SELECT GET_LOCK('supermarket_schema', 0)"));

        var settings = TestSettings.For();
        settings["Database:ConnectionString"] = TestSettings.DatabaseAt(database);
        settings["Writer:SchemaLockWait"] = "00:00:02";
        var refused = await Assert.ThrowsAnyAsync<InvalidOperationException>(() => SupermarketSystem.MigrateSchemaAsync(settings));

        Assert.Contains("supermarket_schema", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, await TablesInAsync(database));
    }

    [Fact]
    public async Task A_writer_on_a_schema_that_was_not_migrated_stops_and_names_the_migration_step()
    {
        var database = await NewDatabaseAsync("behind");
        var settings = TestSettings.For();
        settings["Database:ConnectionString"] = TestSettings.DatabaseAt(database);

        var refused = await Assert.ThrowsAnyAsync<InvalidOperationException>(() => SupermarketSystem.StartWorkerAsync(Worker.Writer, settings));

        Assert.Contains("migrate", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, await TablesInAsync(database));
    }

    private static async Task<string> NewDatabaseAsync(string name)
    {
        var database = $"{TestSettings.DatabaseName}_{name}";
        await RealServices.PrepareAsync();
        await TestDatabase.CreateEmptyAsync(database);
        return database;
    }

    private static Task<long> TablesInAsync(string database) =>
        TestDatabase.CountAsync("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = @schema", new { schema = database });
}
