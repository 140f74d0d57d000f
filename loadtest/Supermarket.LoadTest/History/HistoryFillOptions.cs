using MySqlConnector;
using Supermarket.Contracts.Catalog;
using Supermarket.Security;

namespace Supermarket.LoadTest.History;

/// <summary>The <c>fill-history</c> command's options. A filled day is the load test's day (<see cref="Chain"/>: stores,
/// purchases a store, items a purchase, customers, seed), dated each of the <see cref="Days"/> days before the
/// chain's --date, so the day the load test then sends lands on that history.</summary>
public sealed record HistoryFillOptions
{
    public int Days { get; init; } = 30;

    /// <summary>Purchases stored, with their one ledger entry, per transaction.</summary>
    public int PurchasesPerTransaction { get; init; } = 20_000;

    /// <summary>Days filled at once, each on a connection of its own: MariaDB stores one LOAD DATA on one core, so a
    /// core a day (on this machine's database, its cores).</summary>
    public int DaysAtOnce { get; init; } = Environment.ProcessorCount;

    public LoadOptions Chain { get; init; } = new();

    /// <summary>The system's Catalog:MaxStoreId: the fill refuses a chain of more stores.</summary>
    public int MaxStoreId { get; init; } = new CatalogOptions().MaxStoreId;

    /// <summary>MySQL; by default this machine's, as the writer's account of this machine (it stores rows, as the
    /// writer does), or as <c>SUPERMARKET_LOADTEST_FILLER_USER</c> and <c>_PASSWORD</c> from the environment.</summary>
    public string Database
    {
        get
        {
            if (field is not null)
            {
                return field;
            }

            var account = Environment.GetEnvironmentVariable("SUPERMARKET_LOADTEST_FILLER_USER") is { Length: > 0 } user
                ? new Account(user, Environment.GetEnvironmentVariable("SUPERMARKET_LOADTEST_FILLER_PASSWORD") ?? "")
                : LocalAccounts.Find()?.DatabaseWriter
                  ?? throw new InvalidOperationException("No database account: run ./run.sh once (it makes this machine's accounts), or set SUPERMARKET_LOADTEST_FILLER_USER and _PASSWORD.");
            return new MySqlConnectionStringBuilder(LocalSystem.Database) { UserID = account.User, Password = account.Password }.ConnectionString;
        }

        init;
    }
}
