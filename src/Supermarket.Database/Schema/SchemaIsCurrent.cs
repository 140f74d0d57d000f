using Dapper;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using MySqlConnector;

namespace Supermarket.Database.Schema;

/// <summary>
/// A writer starts only on a schema its migrations are all applied to: the migration step (<see cref="SchemaMigration"/>)
/// runs before it with the schema owner's account, and the writer's own account cannot change the schema. One that
/// finds the schema behind stops, saying which step to run, rather than write rows a table is not ready for.
/// </summary>
public sealed class SchemaIsCurrent(IOptions<DatabaseOptions> options) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var needed = SchemaMigration.Migrations()[^1].Version;
        int applied;
        await using (var connection = new MySqlConnection(options.Value.PooledConnectionString()))
        {
            try
            {
                applied = await connection.ExecuteScalarAsync<int>(new CommandDefinition(
                    "SELECT COALESCE(MAX(version), 0) FROM schema_versions", cancellationToken: cancellationToken));
            }
            catch (MySqlException exception) when (exception.ErrorCode == MySqlErrorCode.NoSuchTable)
            {
                applied = 0;
            }
            catch (MySqlException exception) when (exception.ErrorCode is MySqlErrorCode.DatabaseAccessDenied or MySqlErrorCode.TableAccessDenied)
            {
                // The migrations grant the writers' role its tables (0007): before them its account may not even
                // connect to the schema.
                applied = 0;
            }
        }

        if (applied < needed)
        {
            throw new InvalidOperationException(
                $"The database's schema is at migration {applied} and this writer needs {needed}: run the migration step first (Supermarket.PurchasesWriter {SchemaMigration.Command}, with the schema owner's database account).");
        }
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
