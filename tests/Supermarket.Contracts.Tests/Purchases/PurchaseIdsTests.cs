using Supermarket.Contracts.Purchases;

namespace Supermarket.Contracts.Tests.Purchases;

public sealed class PurchaseIdsTests
{
    private static readonly DateOnly Day = new(2021, 1, 1);

    [Fact]
    public void The_same_store_and_key_give_the_same_id_and_anything_else_another()
    {
        var id = PurchaseIds.ForIdempotencyKey(7, Day, "till-3/000123");

        Assert.Equal(id, PurchaseIds.ForIdempotencyKey(7, Day, "till-3/000123"));
        Assert.NotEqual(id, PurchaseIds.ForIdempotencyKey(8, Day, "till-3/000123"));
        Assert.NotEqual(id, PurchaseIds.ForIdempotencyKey(7, Day, "till-3/000124"));
    }

    [Fact]
    public void Ids_are_rfc_9562_version_8_and_sort_by_purchase_date()
    {
        var id = PurchaseIds.ForIdempotencyKey(7, Day, "k");
        var bytes = id.ToByteArray(bigEndian: true);

        Assert.Equal(8, id.Version);
        Assert.Equal(0b10, bytes[8] >> 6);
        var nextDay = PurchaseIds.ForIdempotencyKey(7, Day.AddDays(1), "a").ToByteArray(bigEndian: true);
        Assert.True(bytes.AsSpan().SequenceCompareTo(nextDay) < 0);
    }
}
