extern alias StoreWorker;

using StoreWorker::Supermarket.Store.Recovery;

namespace Supermarket.UnitTests.Store;

public sealed class CountedPurchasesTests
{
    [Fact]
    public void A_purchase_is_new_once_and_the_oldest_are_forgotten_first_beyond_the_capacity()
    {
        var counted = new CountedPurchases(capacity: 3);
        var ids = Enumerable.Range(0, 4).Select(_ => Guid.NewGuid()).ToArray();

        Assert.True(counted.TryAdd(ids[0]));
        Assert.False(counted.TryAdd(ids[0]));
        Assert.True(counted.TryAdd(ids[1]));
        Assert.True(counted.TryAdd(ids[2]));
        Assert.True(counted.TryAdd(ids[3])); // forgets ids[0]

        Assert.False(counted.TryAdd(ids[3]));
        Assert.False(counted.TryAdd(ids[1]));
        Assert.True(counted.TryAdd(ids[0]));
    }

    [Fact]
    public async Task Ready_completes_only_when_the_rebuild_does()
    {
        var counted = new CountedPurchases(capacity: 10);
        Assert.False(counted.Ready.IsCompleted);
        counted.Complete();
        await counted.Ready.WaitAsync(TimeSpan.FromSeconds(5));
    }
}
