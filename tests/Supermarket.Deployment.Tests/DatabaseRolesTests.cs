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
        var migrations = Directory.GetFiles(Path.Combine(ComposeFile.RepositoryRoot(), "src/Supermarket.Database/Schema/Migrations"), "*.sql")
            .Select(File.ReadAllText).ToList();
        var granted = migrations.SelectMany(sql => GrantTo().Matches(sql)).Select(grant => grant.Groups["role"].Value).ToHashSet();

        Assert.Equal(Roles.Order(), granted.Order());
    }

    [Theory]
    [InlineData("docker/mysql-init/users.sh", "FOR", new[] { DatabaseRoles.PurchasesWriter, DatabaseRoles.LedgerReader, DatabaseRoles.Verifier })]
    [InlineData("infra/hooks/mysql-users.sh", "TO", new[] { DatabaseRoles.PurchasesWriter, DatabaseRoles.LedgerReader })] // no load test in Azure
    public void Each_provisioning_makes_the_roles_gives_each_account_its_own_and_grants_no_table(string file, string defaultRoleFor, string[] roles)
    {
        var script = File.ReadAllText(Path.Combine(ComposeFile.RepositoryRoot(), file));

        foreach (var role in roles)
        {
            Assert.Contains($"CREATE ROLE IF NOT EXISTS {role};", script, StringComparison.Ordinal);
            Assert.Contains($"SET DEFAULT ROLE {role} {defaultRoleFor} ", script, StringComparison.Ordinal);
        }

        // The schema owner's grant on the schema is the only one that names a privilege.
        Assert.Single(PrivilegeGrant().Matches(script));
        Assert.Matches(@"GRANT ALL PRIVILEGES ON .* WITH GRANT OPTION;", script);
    }

    [GeneratedRegex(@"GRANT [A-Z ,()_a-z]+ ON \w+ TO (?<role>\w+);")]
    private static partial Regex GrantTo();

    [GeneratedRegex(@"GRANT (SELECT|INSERT|UPDATE|DELETE|ALL)")]
    private static partial Regex PrivilegeGrant();
}
