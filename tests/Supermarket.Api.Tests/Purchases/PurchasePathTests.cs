using System.Globalization;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Purchases;

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

    [Fact]
    public void The_dates_taken_run_from_2000_to_a_year_from_today()
    {
        var latest = PurchaseDates.Latest;
        Assert.Null(PurchasePath.ParseDate("20000101", "date", out _));
        Assert.Null(PurchasePath.ParseDate(latest.ToString("yyyyMMdd", CultureInfo.InvariantCulture), "date", out _));
        Assert.Equal("from", PurchasePath.ParseDate(latest.AddDays(1).ToString("yyyyMMdd", CultureInfo.InvariantCulture), "from", out _)?.Field);
    }

    [Theory]
    [InlineData("1", "1", "20230229", "date")] // not a leap year
    [InlineData("1", "1", "20211301", "date")]
    [InlineData("1", "1", "00000101", "date")]
    [InlineData("1", "1", "09991231", "date")] // before MySQL's DATE range
    [InlineData("1", "1", "19991231", "date")] // before the dates the system takes (PurchaseDates)
    [InlineData("1", "1", "99991231", "date")] // in MySQL's range, but far past a year ahead
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
