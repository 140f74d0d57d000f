using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using MySqlConnector;
using Supermarket.AppHost.Secrets;
using Supermarket.Database;
using Supermarket.Database.Schema;
using Supermarket.Security;

namespace Supermarket.AppHost.Services;

/// <summary>MariaDB from Debian's package (Aspire's MySQL integration is not served here), its accounts provisioned as
/// root over its socket. State in .local/mariadb, which scripts/services.sh lets the <c>mysql</c> user own.</summary>
public static class MariaDb
{
    /// <summary>The services' own default, so that a service run alone finds the server the AppHost runs.</summary>
    public static readonly string ConnectionString = new DatabaseOptions().ConnectionString;

    public static readonly string Database = new MySqlConnectionStringBuilder(ConnectionString).Database;

    public static (IResourceBuilder<ExecutableResource> Server, IResourceBuilder<ExecutableResource> Accounts) AddMariaDb(
        this IDistributedApplicationBuilder builder, LocalAccounts accounts)
    {
        var folder = MachineAccounts.StateFolder("mariadb");
        var port = (int)new MySqlConnectionStringBuilder(ConnectionString).Port;
        var configuration = Path.Combine(folder, "my.cnf");
        var defaults = $"--defaults-file={configuration}";
        // Asked as root over the socket: each bare TCP probe would be a connection error, and MariaDB blocks a host
        // after max_connect_errors of them.
        builder.Services.AddHealthChecks().AddAsyncCheck("mariadb", cancellation => AnswersPingAsync(defaults, cancellation));
        // The files each step reads are written as it starts, not while the model is only built (a test, a publish).
        var server = builder.AddExecutable("mariadb", "mariadbd", folder, defaults, "--user=mysql")
            .WithHealthCheck("mariadb")
            .OnBeforeResourceStarted((_, _, _) => WriteConfiguration(configuration, folder, port));
        if (!Directory.Exists(Path.Combine(folder, "data", "mysql")))
        {
            server.WaitForCompletion(builder.AddExecutable("mariadb-install", "mariadb-install-db", folder, defaults, "--user=mysql", "--skip-test-db")
                .OnBeforeResourceStarted((_, _, _) => WriteConfiguration(configuration, folder, port)));
        }

        var provisioning = Path.Combine(folder, "accounts.sql");
        var provisioned = builder.AddExecutable("mariadb-accounts", "mariadb", folder, defaults, "-uroot", "-e", $"source {provisioning}")
            .WaitFor(server)
            .OnBeforeResourceStarted((_, _, _) =>
            {
                OwnerOnlyFile.Write(provisioning, AccountsSql(accounts));
                return Task.CompletedTask;
            });
        return (server, provisioned);
    }

    private static async Task<HealthCheckResult> AnswersPingAsync(string defaults, CancellationToken cancellation)
    {
        using var ping = Process.Start(new ProcessStartInfo("mariadb-admin", [defaults, "--connect-timeout=2", "ping"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        })!;
        var answer = ping.StandardError.ReadToEndAsync(cancellation);
        await ping.WaitForExitAsync(cancellation);
        return ping.ExitCode == 0 ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy(await answer);
    }

    private static Task WriteConfiguration(string path, string folder, int port)
    {
        Directory.CreateDirectory(Path.Combine(folder, "data"));
        File.WriteAllText(path, $"""
            [mysqld]
            datadir={folder}/data
            socket={folder}/mysqld.sock
            pid-file={folder}/mysqld.pid
            port={port}
            bind-address=127.0.0.1
            skip-name-resolve
            !include {Path.Combine(AppContext.BaseDirectory, "mariadb.cnf")}

            [client]
            socket={folder}/mysqld.sock

            """);
        return Task.CompletedTask;
    }

    /// <summary>From 127.0.0.1 only. The owner may grant, so the migrations give each role its tables; every other
    /// account has its role alone (docs/security.md, "Each service its own accounts").</summary>
    private static string AccountsSql(LocalAccounts accounts)
    {
        static string Text(string value) => $"'{value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("'", "''", StringComparison.Ordinal)}'";
        static string User(Account account) => $"{Text(account.User)}@'127.0.0.1'";
        static string Create(Account account) => $"""
            CREATE USER IF NOT EXISTS {User(account)} IDENTIFIED VIA mysql_native_password USING PASSWORD({Text(account.Password)});
            ALTER USER {User(account)} IDENTIFIED VIA mysql_native_password USING PASSWORD({Text(account.Password)});
            """;
        // Revoked first, so each account holds its role and nothing else, whatever it was granted before.
        static string WithRoleOnly(Account account, string role) => $"""
            {Create(account)}
            REVOKE ALL PRIVILEGES, GRANT OPTION FROM {User(account)};
            CREATE ROLE IF NOT EXISTS {role};
            GRANT {role} TO {User(account)};
            SET DEFAULT ROLE {role} FOR {User(account)};
            """;
        var owner = accounts.DatabaseOwner;
        return $"""
            CREATE DATABASE IF NOT EXISTS `{Database}` CHARACTER SET utf8mb4;
            {Create(owner)}
            GRANT ALL PRIVILEGES ON `{Database}`.* TO {User(owner)} WITH GRANT OPTION;
            {WithRoleOnly(accounts.DatabaseWriter, DatabaseRoles.PurchasesWriter)}
            {WithRoleOnly(accounts.DatabaseVerifier, DatabaseRoles.Verifier)}
            {WithRoleOnly(accounts.DatabaseReader, DatabaseRoles.LedgerReader)}
            FLUSH PRIVILEGES;

            """;
    }
}
