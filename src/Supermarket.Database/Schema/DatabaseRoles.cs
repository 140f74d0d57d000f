namespace Supermarket.Database.Schema;

/// <summary>MySQL grants on a table only once it exists: the migrations grant these roles their tables; provisioning
/// makes the roles, each service's account its own (docs/security.md, "Each service its own accounts").</summary>
public static class DatabaseRoles
{
    public const string PurchasesWriter = "supermarket_purchases_writer";

    public const string LedgerReader = "supermarket_ledger_reader";

    public const string Verifier = "supermarket_verifier";
}
