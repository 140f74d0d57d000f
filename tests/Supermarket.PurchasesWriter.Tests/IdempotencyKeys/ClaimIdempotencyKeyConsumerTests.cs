using MassTransit;
using Supermarket.Contracts.Purchases;

namespace Supermarket.PurchasesWriter.Tests.IdempotencyKeys;

/// <summary>The API's question before it publishes a keyed purchase, answered as the API asks it (request/response):
/// is this request the key's first one, or the same one again?</summary>
public sealed class ClaimIdempotencyKeyConsumerTests
{
    private static readonly byte[] Purchase = [1, 2, 3];
    private static readonly byte[] AnotherPurchase = [4, 5, 6];

    [Fact]
    public async Task A_key_is_the_first_request_s_and_the_same_request_may_claim_it_again()
    {
        await using var writer = await WriterHarness.StartAsync();

        Assert.True(await ClaimAsync(writer, store: 1, "till-7-0001", Purchase));
        Assert.True(await ClaimAsync(writer, store: 1, "till-7-0001", Purchase));
    }

    [Fact]
    public async Task A_different_purchase_under_a_claimed_key_is_refused()
    {
        await using var writer = await WriterHarness.StartAsync();

        Assert.True(await ClaimAsync(writer, store: 1, "till-7-0001", Purchase));
        Assert.False(await ClaimAsync(writer, store: 1, "till-7-0001", AnotherPurchase));
    }

    [Fact]
    public async Task Each_store_has_keys_of_its_own()
    {
        await using var writer = await WriterHarness.StartAsync();

        Assert.True(await ClaimAsync(writer, store: 1, "till-7-0001", Purchase));
        Assert.True(await ClaimAsync(writer, store: 2, "till-7-0001", AnotherPurchase));
    }

    private static async Task<bool> ClaimAsync(WriterHarness writer, int store, string key, byte[] requestHash)
    {
        var answer = await writer.Bus.GetRequestClient<ClaimIdempotencyKey>()
            .GetResponse<IdempotencyKeyClaimed>(new ClaimIdempotencyKey(store, key, requestHash));
        return answer.Message.SameRequest;
    }
}
