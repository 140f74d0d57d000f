using System.Text.RegularExpressions;
using Supermarket.Database.Schema;

namespace Supermarket.Deployment.Tests;

/// <summary>What each service's database account may do is written once, in the migrations' grants to its role
/// (<see cref="DatabaseRoles"/>); each way of provisioning the database makes those roles and gives each account its
/// own, and grants no table itself (#57: the writers' rights had been written three times, on the whole schema).</summary>
public sealed partial class DatabaseRolesTests
{
    private static readonly string[] Roles = [DatabaseRoles.PurchasesWriter, DatabaseRoles.LedgerReader, DatabaseRoles.Verifier];

    [Fact]
    public void The_migrations_grant_tables_to_these_roles_only_and_to_each_of_them()
    {
        Assert.Equal(Roles.Order(), MigrationsGrantTo().Order());
    }

    /// <summary>MySQL 8 refuses a grant to a role that does not exist (error 1410): a path that did not make every role
    /// a migration grants to would stop at that migration, and its writers would never start (#72: Azure's hook made no
    /// supermarket_verifier).</summary>
    [Theory]
    [InlineData("docker/mysql-init/users.sh")]
    [InlineData("infra/hooks/mysql-users.sh")]
    [InlineData("src/Supermarket.AppHost/Services/MariaDb.cs")]
    public void Each_provisioning_makes_every_role_the_migrations_grant_to(string file)
    {
        var script = File.ReadAllText(Path.Combine(ComposeFile.RepositoryRoot(), file));
        // The scripts name each role; the AppHost makes the role it gives an account, named by DatabaseRoles.
        var created = CreateRole().Matches(script).Select(role => role.Groups["role"].Value)
            .Concat(RoleGiven().Matches(script).Select(role => (string)typeof(DatabaseRoles).GetField(role.Groups["role"].Value)!.GetRawConstantValue()!))
            .ToHashSet();

        Assert.Empty(MigrationsGrantTo().Except(created));
    }

    [Theory]
    [InlineData("docker/mysql-init/users.sh", "FOR", new[] { DatabaseRoles.PurchasesWriter, DatabaseRoles.LedgerReader, DatabaseRoles.Verifier })]
    [InlineData("infra/hooks/mysql-users.sh", "TO", new[] { DatabaseRoles.PurchasesWriter, DatabaseRoles.LedgerReader })] // no load test in Azure
    public void Each_provisioning_gives_each_account_its_own_role_and_grants_no_table(string file, string defaultRoleFor, string[] roles)
    {
        var script = File.ReadAllText(Path.Combine(ComposeFile.RepositoryRoot(), file));

        foreach (var role in roles)
        {
            Assert.Contains($"SET DEFAULT ROLE {role} {defaultRoleFor} ", script, StringComparison.Ordinal);
        }

        // The schema owner's grant on the schema is the only one that names a privilege.
        Assert.Single(PrivilegeGrant().Matches(script));
        Assert.Matches(@"GRANT ALL PRIVILEGES ON .* WITH GRANT OPTION;", script);
    }

    /// <summary>The image runs /docker-entrypoint-initdb.d only on a new volume: a volume made before migration 0007
    /// kept the writers' rights on the whole schema (#72). Compose provisions the accounts on every `up`, each revoked
    /// before it gets its role, so an upgraded volume ends with the grants of a new one.</summary>
    [Fact]
    public void Compose_provisions_the_database_accounts_on_every_up_each_revoked_before_its_role()
    {
        var compose = string.Join("\n", ComposeFile.Lines);
        Assert.DoesNotContain("docker-entrypoint-initdb.d", compose, StringComparison.Ordinal);
        Assert.Contains("/users.sh", compose[compose.IndexOf("  mariadb-users:", StringComparison.Ordinal)..], StringComparison.Ordinal);

        var script = File.ReadAllText(Path.Combine(ComposeFile.RepositoryRoot(), "docker/mysql-init/users.sh"));
        foreach (var account in new[] { "writer", "reader", "verifier" })
        {
            var revoked = script.IndexOf($"REVOKE ALL PRIVILEGES, GRANT OPTION FROM ${{{account}}};", StringComparison.Ordinal);
            Assert.True(revoked >= 0, $"{account} is not revoked");
            Assert.True(revoked < script.IndexOf($"TO ${{{account}}};", StringComparison.Ordinal), $"{account} gets its role before it is revoked");
        }
    }

    private static HashSet<string> MigrationsGrantTo() =>
        [.. Directory.GetFiles(Path.Combine(ComposeFile.RepositoryRoot(), "src/Supermarket.Database/Schema/Migrations"), "*.sql")
            .SelectMany(file => GrantTo().Matches(File.ReadAllText(file))).Select(grant => grant.Groups["role"].Value)];

    [GeneratedRegex(@"CREATE ROLE IF NOT EXISTS (?<role>\w+);")]
    private static partial Regex CreateRole();

    [GeneratedRegex(@"WithRoleOnly\([^,]+, DatabaseRoles\.(?<role>\w+)\)")]
    private static partial Regex RoleGiven();

    [GeneratedRegex(@"GRANT [A-Z ,()_a-z]+ ON \w+ TO (?<role>\w+);")]
    private static partial Regex GrantTo();

    [GeneratedRegex(@"GRANT (SELECT|INSERT|UPDATE|DELETE|ALL)")]
    private static partial Regex PrivilegeGrant();
}
