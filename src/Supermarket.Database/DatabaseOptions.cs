using System.ComponentModel.DataAnnotations;
using MySqlConnector;

namespace Supermarket.Database;

/// <summary>Where MySQL is, who this process is there, and how many connections it may hold. Section
/// <c>Database</c>.</summary>
public sealed class DatabaseOptions : IValidatableObject
{
    public const string Section = "Database";

    /// <summary>Where and how to connect; the user and password are the two settings below, never in here.</summary>
    [Required]
    public string ConnectionString { get; set; } = "Server=127.0.0.1;Port=3306;Database=supermarket;SslMode=None";

    /// <summary>This service's own database user: the writer's owns the schema, the aggregator's may read the sales
    /// ledger only (docs/security.md). No default, like <see cref="Password"/>: a process without them refuses to
    /// start.</summary>
    [Required(ErrorMessage = "Database:User is not set (Database__User): each service has a database user of its own.")]
    public string User { get; set; } = "";

    [Required(ErrorMessage = "Database:Password is not set (Database__Password): there is no default password.")]
    public string Password { get; set; } = "";

    /// <summary>The pool's ceiling: this process never opens more connections than this (the seeds' database
    /// allowed 66 for everything). The default is what the writer's defaults need (PurchaseRecordingSetup's rule);
    /// the aggregator, which needs two, says so in its appsettings.</summary>
    [Range(1, 1000)]
    public int MaxConnections { get; set; } = 10;

    public string PooledConnectionString() =>
        new MySqlConnectionStringBuilder(ConnectionString)
        {
            UserID = User,
            Password = Password,
            Pooling = true,
            MaximumPoolSize = (uint)MaxConnections,
        }.ConnectionString;

    /// <summary>One place for each: a user or password inside the connection string would be overridden without a
    /// word, or shown where the connection string is.</summary>
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        var connection = new MySqlConnectionStringBuilder(ConnectionString);
        if (!string.IsNullOrEmpty(connection.UserID) || !string.IsNullOrEmpty(connection.Password))
        {
            yield return new ValidationResult(
                "Database:ConnectionString names a user or password: give them as Database:User and Database:Password.",
                [nameof(ConnectionString)]);
        }
    }
}
