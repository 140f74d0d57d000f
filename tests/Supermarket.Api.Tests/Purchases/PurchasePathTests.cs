using Supermarket.Api.Purchases;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Api.Tests.Purchases;

public sealed class PurchasePathTests
{
    private static readonly CatalogOptions Catalog = new();

    [Fact]
    public void A_valid_path_parses()
    {
        Assert.Null(PurchasePath.TryParse("512", "512999", "20240229", Catalog, out var store, out var customer, out var day));
        Assert.Equal((512, 512999, new DateOnly(2024, 2, 29)), (store, customer, day));
    }

    [Theory]
    [InlineData("1", "1", "20230229", "date")] // not a leap year
    [InlineData("1", "1", "20211301", "date")]
    [InlineData("1", "1", "00000101", "date")]
    [InlineData("1", "1", "09991231", "date")] // before MySQL's DATE range: stored, but never in a history answer
    [InlineData("1", "1", "２０２１０１０１", "date")] // full-width digits
    [InlineData(" 1", "1", "20210101", "storeID")]
    [InlineData("1.0", "1", "20210101", "storeID")]
    [InlineData("1", "2147483648", "20210101", "custID")]
    [InlineData("1", "-1", "20210101", "custID")]
    public void Bad_paths_name_the_part(string store, string customer, string date, string field)
    {
        var error = PurchasePath.TryParse(store, customer, date, Catalog, out _, out _, out _);

        Assert.Equal(field, error?.Field);
    }
}
