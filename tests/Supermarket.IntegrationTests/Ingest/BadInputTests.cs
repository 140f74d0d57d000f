using System.Net;
using System.Text;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Ingest;

/// <summary>Every malformed request gets a 4xx problem+json naming what was wrong; none gets a 5xx.</summary>
[Collection(nameof(SystemCollection))]
public sealed class BadInputTests(SupermarketSystem system)
{
    private const string Valid = """{"items":[{"ItemID":"47410","numberOfItems:":1}]}""";
    private const string Path = "/purchase/1/customer/1000/date/20210101";

    public static TheoryData<string, string, string, int, string> Cases() => new()
    {
        // path, content type, body, expected status, text the problem must contain
        { "/purchase/abc/customer/1000/date/20210101", "application/json", Valid, 400, "storeID" },
        { "/purchase/0/customer/1000/date/20210101", "application/json", Valid, 400, "storeID" },
        { "/purchase/-4/customer/1000/date/20210101", "application/json", Valid, 400, "storeID" },
        { "/purchase/513/customer/1000/date/20210101", "application/json", Valid, 400, "512" },
        { "/purchase/99999999999/customer/1000/date/20210101", "application/json", Valid, 400, "storeID" },
        { "/purchase/1/customer/x/date/20210101", "application/json", Valid, 400, "custID" },
        { "/purchase/1/customer/0/date/20210101", "application/json", Valid, 400, "custID" },
        { "/purchase/1/customer/1000/date/2021011", "application/json", Valid, 400, "date" },
        { "/purchase/1/customer/1000/date/2021-01-01", "application/json", Valid, 400, "date" },
        { "/purchase/1/customer/1000/date/20210230", "application/json", Valid, 400, "calendar" },
        { "/purchase/1/customer/1000/date/2021AB01", "application/json", Valid, 400, "date" },
        // Outside the purchase dates the system takes (PurchaseDates): before 2000, or more than a year ahead.
        { "/purchase/1/customer/1000/date/19991231", "application/json", Valid, 400, "date" },
        { $"/purchase/1/customer/1000/date/{DateTime.UtcNow.AddYears(1).AddDays(2):yyyyMMdd}", "application/json", Valid, 400, "date" },
        { Path, "application/json", "", 400, "body" },
        { Path, "application/json", "{", 400, "body" },
        { Path, "application/json", "[]", 400, "body" },
        { Path, "application/json", "null", 400, "body" },
        { Path, "application/json", "{}", 400, "items" },
        { Path, "application/json", """{"items":{}}""", 400, "items" },
        { Path, "application/json", """{"items":[]}""", 400, "items" },
        { Path, "application/json", """{"items":[5]}""", 400, "items[0]" },
        { Path, "application/json", """{"items":[{"numberOfItems:":1}]}""", 400, "items[0].ItemID" },
        { Path, "application/json", """{"items":[{"ItemID":"abc","numberOfItems:":1}]}""", 400, "items[0].ItemID" },
        { Path, "application/json", """{"items":[{"ItemID":"1.5","numberOfItems:":1}]}""", 400, "items[0].ItemID" },
        { Path, "application/json", """{"items":[{"ItemID":"0","numberOfItems:":1}]}""", 400, "items[0].ItemID" },
        { Path, "application/json", """{"items":[{"ItemID":"100001","numberOfItems:":1}]}""", 400, "100000" },
        { Path, "application/json", """{"items":[{"ItemID":"99999999999999999999","numberOfItems:":1}]}""", 400, "ItemID" },
        { Path, "application/json", """{"items":[{"ItemID":"1"}]}""", 400, "numberOfItems" },
        { Path, "application/json", """{"items":[{"ItemID":"1","numberOfItems:":0}]}""", 400, "numberOfItems" },
        { Path, "application/json", """{"items":[{"ItemID":"1","numberOfItems:":-3}]}""", 400, "numberOfItems" },
        { Path, "application/json", """{"items":[{"ItemID":"1","numberOfItems:":1.5}]}""", 400, "numberOfItems" },
        { Path, "application/json", """{"items":[{"ItemID":"1","numberOfItems:":"2"}]}""", 400, "numberOfItems" },
        { Path, "application/json", """{"items":[{"ItemID":"1","numberOfItems:":10001}]}""", 400, "10000" },
        { Path, "application/json", """{"items":[{"ItemID":"1","numberOfItems:":1}]} trailing""", 400, "body" },
        { Path, "application/json", TooManyItems(), 400, "at most 100" },
        { Path, "application/json", Deep(100), 400, "body" },
        { Path, "text/plain", Valid, 400, "Content-Type" },
        { Path, "application/json", Oversized(), 413, "65536" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Bad_input_gets_a_problem_that_names_it(string path, string contentType, string body, int status, string mentions)
    {
        var response = await Purchases.PostAsync(system.Api, path, body, contentType);
        var text = await response.Content.ReadAsStringAsync();

        Assert.Equal(status, (int)response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains(mentions, text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_body_that_is_not_UTF8_is_a_client_error()
    {
        var bytes = Encoding.UTF8.GetBytes("""{"items":[{"ItemID":"1","numberOfItems:":1,"note":"xx"}]}""");
        bytes[^6] = 0xC3; // a lone UTF-8 lead byte inside a string
        bytes[^5] = 0x28;
        var content = new ByteArrayContent(bytes);
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");

        var response = await system.Api.PostAsync(Path, content);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    [Fact]
    public async Task The_plain_quantity_key_and_a_numeric_ItemID_are_accepted()
    {
        var response = await Purchases.PostAsync(system.Api, Path, """{"items":[{"ItemID":47410,"numberOfItems":2}]}""");

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    private static string TooManyItems() =>
        "{\"items\":[" + string.Join(",", Enumerable.Range(1, 101).Select(i => $"{{\"ItemID\":\"{i}\",\"numberOfItems:\":1}}")) + "]}";

    private static string Deep(int depth) =>
        "{\"items\":[{\"ItemID\":\"1\",\"numberOfItems:\":1,\"x\":" + new string('[', depth) + new string(']', depth) + "}]}";

    private static string Oversized() =>
        "{\"items\":[{\"ItemID\":\"1\",\"numberOfItems:\":1,\"pad\":\"" + new string('x', 70_000) + "\"}]}";
}
