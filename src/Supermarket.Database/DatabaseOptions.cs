using System.ComponentModel.DataAnnotations;
using MySqlConnector;

namespace Supermarket.Database;

/// <summary>Where MySQL is and how many connections a process may hold. Section <c>Database</c>.</summary>
public sealed class DatabaseOptions
{
    public const string Section = "Database";

    [Required]
    public string ConnectionString { get; set; } =
        "Server=127.0.0.1;Port=3306;Database=supermarket;User ID=supermarket;Password=supermarket-local;SslMode=None";

    /// <summary>The pool's ceiling: this process never opens more connections than this (the seeds' database
    /// allowed 66 for everything).</summary>
    [Range(1, 1000)]
    public int MaxConnections { get; set; } = 8;

    public string PooledConnectionString() =>
        new MySqlConnectionStringBuilder(ConnectionString)
        {
            Pooling = true,
            MaximumPoolSize = (uint)MaxConnections,
        }.ConnectionString;
}
