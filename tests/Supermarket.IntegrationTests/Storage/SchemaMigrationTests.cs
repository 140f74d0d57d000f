using Dapper;
using MySqlConnector;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>The schema changes only in the migration step, as the schema owner. Steps that run together migrate one at
/// a time: one that cannot get the schema lock must not migrate beside the one holding it (two datings of the old
/// sales, migration 0010, would count each into its day twice). A writer on a schema its migrations are not all
/// applied to does not start.</summary>
[Collection(nameof(SystemCollection))]
public sealed class SchemaMigrationTests
{
    [Fact]
    public async Task A_migration_step_that_cannot_get_the_schema_lock_stops_without_migrating()
    {
        var database = await NewDatabaseAsync("lock");

        InvalidOperationException refused;
        // Another step, in the middle of its migration, on a session of its own that ends with it. A pooled connection
        // kept the lock after its disposal, idle in the pool until something reused it, and a later test's migration
        // waited for it (the integration tests' history fill test hung for 3 minutes in a full run, 2026-11-26).
        await using (var migrating = new MySqlConnection(Unpooled(TestSettings.OwnerConnectionString())))
        {
            await migrating.OpenAsync();
            Assert.Equal(1, await migrating.ExecuteScalarAsync<int>("SELECT GET_LOCK('supermarket_schema', 0)"));

            var settings = TestSettings.For();
            settings["Database:ConnectionString"] = TestSettings.DatabaseAt(database);
            settings["Writer:SchemaLockWait"] = "00:00:02";
            refused = await Assert.ThrowsAnyAsync<InvalidOperationException>(() => SupermarketSystem.MigrateSchemaAsync(settings));
        }

        // The lock is the server's, not this database's: once the other step is gone, every later migration of the
        // run may take it. Asked on a session of its own, as the next migration would be, which waits for the lock
        // (Writer:SchemaLockWait): the server ends the closed session a moment after the client has left, so the lock
        // is free within seconds, where a session kept open would hold it for good (found: 0 asked at once, CI 2026-12-04).
        await using (var next = new MySqlConnection(Unpooled(TestSettings.OwnerConnectionString())))
        {
            Assert.Equal(1, await Eventually.UntilAsync(() => next.ExecuteScalarAsync<int>("SELECT IS_FREE_LOCK('supermarket_schema')"),
                free => free == 1, TimeSpan.FromSeconds(10)));
        }

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

    private static string Unpooled(string connectionString) =>
        new MySqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString;

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
