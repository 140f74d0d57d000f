extern alias LoadTest;

using MySqlConnector;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>src/Supermarket.Database/Schema/schema.sql is the schema as a person reads it, and the migrations are what
/// runs: the file must be exactly what they make of a database from nothing, or it would describe a schema no database
/// has. When it is not, the migrated schema under the file's header is written beside the test results, to copy over
/// the file once the migration is as meant.</summary>
[Collection(nameof(SystemCollection))]
public sealed class SchemaFileTests
{
    private const string Database = TestSettings.DatabaseName + "_schema_file";

    [Fact]
    public async Task The_schema_file_is_the_schema_of_a_database_migrated_from_nothing()
    {
        var cancellation = TestContext.Current.CancellationToken;
        var root = LoadTest::Supermarket.LoadTest.Repository.Root() ?? throw new InvalidOperationException("The checkout is not above the tests.");
        var file = SchemaFile.Parse(await File.ReadAllTextAsync(Path.Combine(root, SchemaFile.RepositoryPath), cancellation));

        await TestDatabase.CreateMigratedAsync(Database);
        string migrated;
        await using (var connection = new MySqlConnection(TestSettings.OwnerConnectionString(Database)))
        {
            await connection.OpenAsync(cancellation);
            migrated = await MigratedSchema.RenderAsync(connection);
        }

        var difference = file.FirstDifference(migrated);
        if (difference is not null)
        {
            // Where ./test.sh keeps the TRX files, made as it makes it (its owner's alone) when the test runs alone.
            var results = Directory.CreateDirectory(Path.Combine(root, ".local", "test-results"),
                UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute).FullName;
            var written = Path.Combine(results, "schema.migrated.sql");
            await File.WriteAllTextAsync(written, file.With(migrated), cancellation);
            TestContext.Current.AddAttachment("schema.migrated.sql", file.With(migrated));
            Assert.Fail($"""
                {SchemaFile.RepositoryPath} is not the schema of a database migrated from nothing.
                {difference}
                The migrated schema, with the file's header, is in {written}: copy it over {SchemaFile.RepositoryPath} if the migrations are as meant.
                """);
        }
    }
}
