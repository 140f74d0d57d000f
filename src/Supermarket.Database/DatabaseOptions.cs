using System.ComponentModel.DataAnnotations;
using MySqlConnector;

namespace Supermarket.Database;

public sealed class DatabaseOptions : IValidatableObject
{
    public const string Section = "Database";

    [Required]
    public string ConnectionString { get; set; } = "Server=127.0.0.1;Port=3306;Database=supermarket;SslMode=None";

    /// <summary>Each service its own (docs/security.md). No default, as for <see cref="Password"/>.</summary>
    [Required(ErrorMessage = "Database:User is not set (Database__User): each service has a database user of its own.")]
    public string User { get; set; } = "";

    [Required(ErrorMessage = "Database:Password is not set (Database__Password): there is no default password.")]
    public string Password { get; set; } = "";

    /// <summary>The default is what the writer's defaults need (PurchaseRecordingSetup's rule).</summary>
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

    /// <summary>A user or password in the connection string would be overridden silently, or shown with it.</summary>
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
