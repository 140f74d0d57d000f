using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Purchases;
using Supermarket.Database;
using Supermarket.Database.IdempotencyKeys;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Ingest;

/// <summary>The writer's claims of Idempotency-Keys, on the real MariaDB with the writers' own account, whose role may
/// insert and read a claim but not update one (migration 0009): the first claim of a key wins, whatever races it, and
/// every later claim reads the winner's request back.</summary>
[Collection(nameof(SystemCollection))]
public sealed class IdempotencyKeyClaimTests(SupermarketSystem system)
{
    private const int Store = 489;

    [Fact]
    public async Task Claims_racing_for_one_key_all_get_the_first_claims_request_and_later_claims_too()
    {
        // The running writer has migrated the schema.
        _ = system.WriterUrl;
        var keys = new IdempotencyKeyStore(Options.Create(new DatabaseOptions
        {
            ConnectionString = TestSettings.DatabaseAt(),
            User = TestSettings.Accounts.DatabaseWriter.User,
            Password = TestSettings.Accounts.DatabaseWriter.Password,
        }));
        var key = $"race-{Guid.NewGuid():N}";
        var requests = Enumerable.Range(0, 16).Select(_ => RandomNumberGenerator.GetBytes(32)).ToArray();

        var answers = await Task.WhenAll(requests.Select(request =>
            keys.FirstRequestHashAsync(new ClaimIdempotencyKey(Store, key, request), TestContext.Current.CancellationToken)));

        var first = answers[0];
        Assert.Contains(requests, request => request.AsSpan().SequenceEqual(first));
        Assert.All(answers, answer => Assert.Equal(first, answer));
        // A retry later, and another request under the key: each is told the first request.
        Assert.Equal(first, await keys.FirstRequestHashAsync(new ClaimIdempotencyKey(Store, key, first), TestContext.Current.CancellationToken));
        Assert.Equal(first, await keys.FirstRequestHashAsync(new ClaimIdempotencyKey(Store, key, RandomNumberGenerator.GetBytes(32)), TestContext.Current.CancellationToken));
        // The same key at another store is that store's own.
        var elsewhere = RandomNumberGenerator.GetBytes(32);
        Assert.Equal(elsewhere, await keys.FirstRequestHashAsync(new ClaimIdempotencyKey(Store + 1, key, elsewhere), TestContext.Current.CancellationToken));
    }
}
