using Dapper;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using MySqlConnector;

namespace Supermarket.Database.Schema;

/// <summary>The writer's account cannot migrate: on a schema behind, it stops, naming the step, rather than write rows
/// a table is not ready for.</summary>
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
                // Before migration 0007 grants the writers' role its tables, its account may not even connect.
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
