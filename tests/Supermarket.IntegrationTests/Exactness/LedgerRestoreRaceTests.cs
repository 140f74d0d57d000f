using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Sales;
using Supermarket.Database;
using Supermarket.Database.Ledger;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Exactness;

/// <summary>
/// The restore race on MariaDB itself (#57, #72): the feed notices a restore by the entry it counted last, read in the
/// same statement as the entries after it, so that a restore and the writers' commits on the restored ledger cannot
/// fall between the two. <c>SalesLedgerFeedTests</c> stages the race on a ledger in memory, which returns one
/// snapshot by construction; here the real <see cref="SalesLedgerReader"/>, as the aggregator's database user, reads
/// while restores land one after another, each one transaction replacing the ledger's tail and <c>ledger_identity</c>,
/// and no read may hold the entry counted last from one restore and an entry after it from another. With the check in a
/// statement of its own (the reader before #57) 1,233 of 7,707 reads mixed them. In a database of its own: its entries
/// have no purchases, which the system's own database must never hold.
/// </summary>
public sealed class LedgerRestoreRaceTests(ITestOutputHelper output)
{
    private const string Database = TestSettings.DatabaseName + "_restore_race";
    /// <summary>Entries every backup holds (seqs 1 to <see cref="Kept"/>), and the tail each restore replaces.</summary>
    private const int Kept = 4, Tail = 20, PageSize = 8;
    private static readonly TimeSpan Race = TimeSpan.FromSeconds(10);
    /// <summary>Restores the reads must have seen land between them, or the race was not run.</summary>
    private const int RestoresSeenAtLeast = 100;
    private static readonly DateTime Epoch = new(2026, 11, 24, 0, 0, 0, DateTimeKind.Unspecified);

    [Fact]
    public async Task A_read_never_holds_the_entry_counted_last_from_before_a_restore_and_entries_from_after_it()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        var identities = new ConcurrentDictionary<Guid, int>();
        await using (var owner = new MySqlConnection(TestSettings.OwnerConnectionString(Database)))
        {
            await owner.OpenAsync();
            await owner.ExecuteAsync(
                $"INSERT INTO sales_ledger (seq, stored_at, purchases, sales) VALUES {Rows(1, Kept, version: 0)}", new { sales = Sales });
            await RestoreAsync(owner, version: 1, identities);
        }

        using var stop = new CancellationTokenSource();
        var restorer = Task.Run(() => RestoreUntilAsync(identities, stop.Token));
        var reads = await ReadWhileRestoringAsync(identities);
        await stop.CancelAsync();
        var restores = await restorer;

        output.WriteLine($"{reads.Reads} reads, {restores} restores committed, {reads.RestoresBetweenReads} seen between two reads, {reads.Mixed.Count} reads mixed");
        Assert.True(reads.Mixed.Count == 0,
            $"{reads.Mixed.Count} of {reads.Reads} reads mixed two restores' ledgers, the first: {reads.Mixed.FirstOrDefault()}");
        Assert.True(reads.RestoresBetweenReads >= RestoresSeenAtLeast,
            $"only {reads.RestoresBetweenReads} restores landed between reads ({restores} committed): the race was not run");
    }

    /// <summary>The aggregator's reads, as the feed makes them (the entry counted last somewhere in the tail each
    /// restore replaces), each between two reads of <c>ledger_identity</c>, which a restore brings back with its
    /// ledger.</summary>
    private static async Task<RaceReads> ReadWhileRestoringAsync(ConcurrentDictionary<Guid, int> identities)
    {
        var database = Options.Create(new DatabaseOptions
        {
            ConnectionString = TestSettings.DatabaseAt(Database),
            User = TestSettings.Accounts.DatabaseReader.User,
            Password = TestSettings.Accounts.DatabaseReader.Password,
        });
        await using var reader = new SalesLedgerReader(database, PageSize);
        var mixed = new List<string>();
        var (reads, restoresBetween, previous) = (0, 0, 0);
        var started = Stopwatch.StartNew();
        while (started.Elapsed < Race)
        {
            var position = Kept + 1 + reads % (Tail - 1);
            var before = identities[(await reader.IdentityAsync(CancellationToken.None)).Id];
            var read = await reader.ReadFromAsync(position, CancellationToken.None);
            var after = identities[(await reader.IdentityAsync(CancellationToken.None)).Id];
            reads++;

            // The entry counted last comes from one restore; every entry after it must come from the same one.
            var counted = VersionOf(position, read.StoredAt);
            var following = read.After.Select(entry => VersionOf((long)entry.Seq, entry.StoredAt)).ToList();
            if (counted is null || following.Any(version => version != counted))
            {
                mixed.Add($"entry {position} counted from restore {Describe(counted)}, then entries {string.Join(", ", read.After.Select(entry => entry.Seq))} from restores {string.Join(", ", following.Select(Describe))}");
                continue;
            }

            // Its identity is read apart from it, and can only be of the restore before it or after it.
            Assert.True(before <= counted && counted <= after,
                $"ledger_identity of restore {before}, then a ledger of restore {counted}, then ledger_identity of restore {after}");
            restoresBetween += counted != previous && previous != 0 ? 1 : 0;
            previous = counted.Value;
        }

        return new RaceReads(reads, restoresBetween, mixed);
    }

    private sealed record RaceReads(int Reads, int RestoresBetweenReads, List<string> Mixed);

    private static async Task<int> RestoreUntilAsync(ConcurrentDictionary<Guid, int> identities, CancellationToken stop)
    {
        await using var owner = new MySqlConnection(TestSettings.OwnerConnectionString(Database));
        await owner.OpenAsync(CancellationToken.None);
        var version = 1;
        while (!stop.IsCancellationRequested)
        {
            await RestoreAsync(owner, ++version, identities);
        }

        return version - 1;
    }

    /// <summary>A backup restored, and writers' commits on it, as one transaction: the entries after
    /// <see cref="Kept"/> are other ones under the same seqs (stored at other times), and the ledger is named anew.</summary>
    private static async Task RestoreAsync(MySqlConnection owner, int version, ConcurrentDictionary<Guid, int> identities)
    {
        var identity = Guid.NewGuid();
        identities[identity] = version;
        await using var transaction = await owner.BeginTransactionAsync();
        await owner.ExecuteAsync($"""
            DELETE FROM sales_ledger WHERE seq > {Kept};
            INSERT INTO sales_ledger (seq, stored_at, purchases, sales) VALUES {Rows(Kept + 1, Kept + Tail, version)};
            UPDATE ledger_identity SET id = @id;
            """, new { sales = Sales, id = identity.ToByteArray() }, transaction);
        await transaction.CommitAsync();
    }

    private static readonly byte[] Sales = SalesLedgerEntry.Encode([new SaleLine(1, 1, 1, new DateOnly(2021, 3, 1))]);

    /// <summary>The entries from <paramref name="first"/> to <paramref name="last"/> as a restore of
    /// <paramref name="version"/> holds them: each stored at a time that names the restore and the seq.</summary>
    private static string Rows(int first, int last, int version)
    {
        var rows = new StringBuilder();
        for (var seq = first; seq <= last; seq++)
        {
            var storedAt = StoredAt(seq, version).ToString("yyyy-MM-dd HH:mm:ss.ffffff", CultureInfo.InvariantCulture);
            rows.Append(seq == first ? "" : ", ").Append(CultureInfo.InvariantCulture, $"({seq}, '{storedAt}', 1, @sales)");
        }

        return rows.ToString();
    }

    private static DateTime StoredAt(long seq, int version) => Epoch.AddMinutes(version).AddMilliseconds(seq);

    /// <summary>Which restore an entry comes from; null if it is missing or from none.</summary>
    private static int? VersionOf(long seq, DateTime? storedAt)
    {
        if (storedAt is not { } at || (at - Epoch.AddMilliseconds(seq)) is not { Ticks: >= 0 } since || since.Ticks % TimeSpan.TicksPerMinute != 0)
        {
            return null;
        }

        return (int)(since.Ticks / TimeSpan.TicksPerMinute);
    }

    private static string Describe(int? version) => version?.ToString(CultureInfo.InvariantCulture) ?? "none";
}
