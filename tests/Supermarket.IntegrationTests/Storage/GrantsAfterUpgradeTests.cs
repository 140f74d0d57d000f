extern alias LoadTest;

using Dapper;
using MySqlConnector;
using Supermarket.Database;
using Supermarket.Faults;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>What each service's role may do on the schema is granted by the migrations only (DatabaseRoles): a
/// database migrated by the previous release, then by this one, ends with the same grants to each role as one this
/// release made new. A migration changed after its release instead of a new one (0007's UPDATE on idempotency_keys
/// taken out in place, say) would leave every upgraded database with the old grants (#72).</summary>
[Collection(nameof(SystemCollection))]
public sealed class GrantsAfterUpgradeTests(TestedAppHost appHost)
{
    private const string New = TestSettings.DatabaseName + "_grants_new";
    private const string Upgraded = TestSettings.DatabaseName + "_grants_upgraded";

    // Where the migrations were in each release (they moved from the writer to Supermarket.Database), as the chaos
    // run's PreviousWriter finds the release before the newest migration.
    private static readonly string[] MigrationFolders = ["src/Supermarket.Database/Schema/Migrations", "src/Supermarket.PurchasesWriter/Storage/Migrations"];

    [Fact]
    public async Task A_database_upgraded_from_the_previous_release_grants_each_role_what_a_new_one_does()
    {
        var cancellation = TestContext.Current.CancellationToken;
        await RealServices.PrepareAsync();
        // MariaDB keeps a table's grants when its database is dropped: those of an earlier test run go first.
        await appHost.Faults.DatabaseAsync(
            $"DELETE FROM mysql.tables_priv WHERE Db IN ('{New}', '{Upgraded}'); DELETE FROM mysql.columns_priv WHERE Db IN ('{New}', '{Upgraded}'); FLUSH PRIVILEGES",
            cancellation);

        await TestDatabase.CreateMigratedAsync(New);

        await TestDatabase.CreateEmptyAsync(Upgraded);
        var previous = await PreviousReleaseMigrationsAsync(cancellation);
        await MigrateAsPreviousReleaseAsync(Upgraded, previous);
        var settings = TestSettings.For();
        settings["Database:ConnectionString"] = TestSettings.DatabaseAt(Upgraded);
        await SupermarketSystem.MigrateSchemaAsync(settings);

        var grantsOfNew = await RoleGrantsAsync(New, cancellation);
        Assert.Contains("supermarket_purchases_writer idempotency_keys Select,Insert", grantsOfNew, StringComparison.Ordinal);
        Assert.Equal(grantsOfNew, await RoleGrantsAsync(Upgraded, cancellation));
    }

    /// <summary>The migrations of the commit before the newest migration was added, each with its version.</summary>
    private static async Task<List<(int Version, string Name, string Sql)>> PreviousReleaseMigrationsAsync(CancellationToken cancellationToken)
    {
        var root = LoadTest::Supermarket.LoadTest.Repository.Root() ?? throw new InvalidOperationException("The checkout is not above the tests.");
        async Task<string> GitAsync(params string[] arguments)
        {
            var result = await ExternalCommand.RunAsync("git", ["-C", root, .. arguments], cancellationToken);
            Assert.True(result.ExitCode == 0, $"git {string.Join(' ', arguments)}: {result.Errors}");
            return result.Output;
        }

        var added = (await GitAsync(["log", "-1", "-M", "--diff-filter=A", "--format=%H", "--", .. MigrationFolders])).Trim();
        var files = (await GitAsync(["ls-tree", "-r", "--name-only", $"{added}^", "--", .. MigrationFolders]))
            .Split('\n', StringSplitOptions.RemoveEmptyEntries).Where(file => file.EndsWith(".sql", StringComparison.Ordinal));
        var migrations = new List<(int, string, string)>();
        foreach (var file in files)
        {
            var name = Path.GetFileName(file);
            migrations.Add((int.Parse(name[..name.IndexOf('_', StringComparison.Ordinal)], System.Globalization.CultureInfo.InvariantCulture), name,
                await GitAsync("show", $"{added}^:{file}")));
        }

        Assert.NotEmpty(migrations);
        return [.. migrations.OrderBy(migration => migration.Item1)];
    }

    /// <summary>Each script applied and listed as the previous release's migration step did (on an empty database,
    /// where its steps in C# have nothing to do).</summary>
    private static async Task MigrateAsPreviousReleaseAsync(string database, List<(int Version, string Name, string Sql)> migrations)
    {
        await using var owner = new MySqlConnection(new DatabaseOptions
        {
            ConnectionString = TestSettings.DatabaseAt(database),
            User = TestSettings.Accounts.DatabaseOwner.User,
            Password = TestSettings.Accounts.DatabaseOwner.Password,
        }.PooledConnectionString());
        await owner.ExecuteAsync("""
            CREATE TABLE IF NOT EXISTS schema_versions (
                version    INT          NOT NULL,
                name       VARCHAR(200) NOT NULL,
                applied_at DATETIME(6)  NOT NULL,
                PRIMARY KEY (version)
            ) ENGINE = InnoDB;
            """);
        foreach (var (version, name, sql) in migrations)
        {
            await owner.ExecuteAsync(sql);
            await owner.ExecuteAsync("INSERT INTO schema_versions (version, name, applied_at) VALUES (@version, @name, UTC_TIMESTAMP(6))", new { version, name });
        }
    }

    /// <summary>What SHOW GRANTS shows of each grantee's rights on the database's tables and columns, read as MariaDB's
    /// root (no account of the system may read another's grants): a grantee and table (and column) a line.</summary>
    private async Task<string> RoleGrantsAsync(string database, CancellationToken cancellationToken) =>
        await appHost.Faults.DatabaseAsync($"""
            SELECT CONCAT_WS(' | ',
                (SELECT GROUP_CONCAT(CONCAT_WS(' ', User, Table_name, Table_priv, Column_priv) ORDER BY User, Table_name SEPARATOR ' | ')
                 FROM mysql.tables_priv WHERE Db = '{database}'),
                (SELECT GROUP_CONCAT(CONCAT_WS(' ', User, Table_name, Column_name, Column_priv) ORDER BY User, Table_name, Column_name SEPARATOR ' | ')
                 FROM mysql.columns_priv WHERE Db = '{database}'))
            """, cancellationToken) ?? "";
}
