namespace Supermarket.Database.Schema;

/// <summary>The roles the migrations grant to, table by table (Schema/Migrations 0005, 0007 and 0009): whoever provisions the
/// database makes them and gives each service's account its own, and nothing else (the AppHost's Services/MariaDb.cs,
/// docker/mysql-init/users.sh, infra/hooks/mysql-users.sh). MySQL grants on a table only once it exists, which is why
/// the grants are the migrations' and the roles the provisioning's.</summary>
public static class DatabaseRoles
{
    /// <summary>The running writers': purchases and their ledger entries stored, never rewritten.</summary>
    public const string PurchasesWriter = "supermarket_purchases_writer";

    /// <summary>The Sales aggregator's: the sales ledger, read.</summary>
    public const string LedgerReader = "supermarket_ledger_reader";

    /// <summary>The load test's: what was stored and counted, read.</summary>
    public const string Verifier = "supermarket_verifier";
}
