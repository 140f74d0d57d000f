using System.Text;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Purchases;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Api.Tests.Purchases;

public sealed class PurchaseBodyParserTests
{
    private static readonly CatalogOptions Catalog = new();

    [Theory]
    [InlineData("""{"items":[{"ItemID":"47410","numberOfItems:":1},{"ItemID":"20998","numberOfItems:":2}]}""")]
    [InlineData("""{"items":[{"ItemID":47410,"numberOfItems":1},{"itemID":"20998","numberOfItems":2}]}""")]
    [InlineData("""{ "extra": {"nested": [1, 2]}, "items" : [ {"numberOfItems:": 1, "ItemID": "47410", "note": "x"}, {"ItemID":"20998","numberOfItems:":2} ] }""")]
    public void The_course_body_and_its_variants_parse_to_the_same_lines(string json)
    {
        var error = PurchaseBodyParser.TryParse(Encoding.UTF8.GetBytes(json), Catalog, out var lines);

        Assert.Null(error);
        Assert.Equal([new PurchaseLine(47410, 1), new PurchaseLine(20998, 2)], lines);
    }

    [Theory]
    [InlineData("", "body")]
    [InlineData("   ", "body")]
    [InlineData("{\"items\":[{\"ItemID\":\"1\",\"numberOfItems:\":1}]", "body")]
    [InlineData("{\"items\":[{\"ItemID\":\"\",\"numberOfItems:\":1}]}", "items[0].ItemID")]
    [InlineData("{\"items\":[{\"ItemID\":\"+5\",\"numberOfItems:\":1}]}", "items[0].ItemID")]
    [InlineData("{\"items\":[{\"ItemID\":\"-5\",\"numberOfItems:\":1}]}", "items[0].ItemID")]
    [InlineData("{\"items\":[{\"ItemID\":\"\\u0031\",\"numberOfItems:\":1}]}", "items[0].ItemID")]
    [InlineData("{\"items\":[{\"ItemID\":true,\"numberOfItems:\":1}]}", "items[0].ItemID")]
    [InlineData("{\"items\":[{\"ItemID\":\"1\",\"numberOfItems:\":1e3}]}", "items[0].numberOfItems")]
    [InlineData("{\"items\":[{\"ItemID\":\"1\",\"numberOfItems:\":1},{\"ItemID\":\"2\",\"numberOfItems:\":null}]}", "items[1].numberOfItems")]
    public void Malformed_bodies_name_the_field(string json, string field)
    {
        var error = PurchaseBodyParser.TryParse(Encoding.UTF8.GetBytes(json), Catalog, out _);

        Assert.NotNull(error);
        Assert.Equal(field, error.Value.Field);
    }

    [Fact]
    public void Bounds_come_from_the_catalog()
    {
        var small = new CatalogOptions { MaxItemId = 10, MaxItemsPerPurchase = 2, MaxQuantity = 3 };

        Assert.Null(PurchaseBodyParser.TryParse("""{"items":[{"ItemID":"10","numberOfItems:":3}]}"""u8, small, out _));
        Assert.Contains("10", PurchaseBodyParser.TryParse("""{"items":[{"ItemID":"11","numberOfItems:":1}]}"""u8, small, out _)!.Value.Reason, StringComparison.Ordinal);
        Assert.Contains("3", PurchaseBodyParser.TryParse("""{"items":[{"ItemID":"1","numberOfItems:":4}]}"""u8, small, out _)!.Value.Reason, StringComparison.Ordinal);
        Assert.Equal("items", PurchaseBodyParser.TryParse("""{"items":[{"ItemID":"1","numberOfItems:":1},{"ItemID":"1","numberOfItems:":1},{"ItemID":"1","numberOfItems:":1}]}"""u8, small, out _)!.Value.Field);
    }
}
