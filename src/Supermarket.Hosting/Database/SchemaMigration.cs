using Dapper;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using MySql.Data.MySqlClient;

namespace Supermarket.Hosting.Database;

/// <summary>Applies Schema.sql before anything else in the process touches the database.</summary>
public sealed class SchemaMigration(IOptions<DatabaseOptions> options) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(options.Value.PooledConnectionString());
        await connection.OpenAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(ReadSchema(), cancellationToken: cancellationToken));
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    private static string ReadSchema()
    {
        using var stream = typeof(SchemaMigration).Assembly.GetManifestResourceStream("Supermarket.Hosting.Database.Schema.sql")
            ?? throw new InvalidOperationException("Schema.sql is not embedded in Supermarket.Hosting.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
