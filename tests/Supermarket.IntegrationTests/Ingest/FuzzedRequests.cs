using System.Globalization;
using System.Text;

namespace Supermarket.IntegrationTests.Ingest;

/// <summary>One request the fuzzer sends: described, so a failure names what was sent.</summary>
public sealed record FuzzedRequest(
    string Method, string Path, string? ContentType, string? IdempotencyKey, byte[]? Body, bool Chunked, FuzzedCaller Caller, int Store, string Description);

/// <summary>Who a fuzzed request says it comes from: a till of the store in its path (<see cref="FuzzedRequest.Store"/>,
/// also when the path's store is malformed), a till of another store, an analyst, nobody, a token that is no JWT, or
/// an analyst's token signed with a key the API does not trust.</summary>
public enum FuzzedCaller
{
    TillOfThePathsStore,
    TillOfAnotherStore,
    Analyst,
    Nobody,
    NotAToken,
    ForeignSignature,
}

/// <summary>
/// Seeded random requests: mostly purchases with something wrong in the path, the headers or the body (wrong
/// types, huge numbers, deep nesting, invalid UTF-8, wrong content types, oversized, truncated), some valid, and some
/// other routes and methods. Store ids stay at or below 200 and item ids at or below 50,000 when valid, away from the
/// stores and items other tests count exactly.
/// </summary>
public sealed class FuzzedRequests(int seed)
{
    // Mostly POSTs, so most requests reach the purchase parser; the rest try the other methods on every route.
    private static readonly string[] Methods = [.. Enumerable.Repeat("POST", 14), "GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "BREW"];

    private static readonly string[] BadIds =
        ["0", "-1", "513", "99999999999999999999", "1e3", "0x10", "1.5", "abc", "%00", "%F0%9F%98%80", "%20%31", "+1", "00000000001", new string('9', 300)];

    private static readonly string[] BadDates =
        ["20211301", "20210230", "2021-01-01", "99999999", "00000000", "2021011", "202101011", "x", new string('2', 400)];

    private static readonly string[] OtherPaths =
        ["/", "/purchase", "/purchase/1", "/purchase/1/customer/1", "/items/store/1", "/items/top10/1", "/items/top5/abc", "/items/store/-5",
         "/purchases/store/1?date=20210101", "/purchases/store/1", "/purchases/store/1?date=20210101&continuation=%25%25",
         "/purchases/store/1?date=20210101&continuation=" + new string('A', 46), "/purchases/customer/abc",
         "/purchases/customer/1?from=20210102&to=20210101", "/purchases/customer/1?from=20210101&continuation=" + new string('_', 5000),
         "/health/ready", "/swagger/v1/swagger.json", "/%", "/..%2F..%2Fetc%2Fpasswd", "/purchase/1/customer/1/date/20210101/extra", "/" + new string('a', 4000)];

    private static readonly string?[] ContentTypes =
        ["application/json", "application/json", "application/json", "application/json", "application/json; charset=utf-8",
         "application/json; charset=utf-8", null, "text/plain", "application/xml",
         "application/json; charset=latin1", "multipart/form-data; boundary=x", "application/*", "application/x-www-form-urlencoded"];

    private static readonly string[] BadValues =
        ["true", "null", "[]", "{}", "\"abc\"", "1.5", "-1", "0", "1e400", "-1e400", "99999999999999999999", "\"99999999999999999999\"", "\"\"",
         "\"1\\u0000\"", "NaN", "Infinity", "\"\\uD800\"", "2147483648", "\"-0\""];

    // A till of the path's store most often, so that with credentials required some purchases still get through.
    private static readonly FuzzedCaller[] Callers =
        [FuzzedCaller.TillOfThePathsStore, FuzzedCaller.TillOfThePathsStore, FuzzedCaller.TillOfThePathsStore, FuzzedCaller.TillOfThePathsStore,
         FuzzedCaller.Analyst, FuzzedCaller.Analyst, FuzzedCaller.TillOfAnotherStore, FuzzedCaller.Nobody, FuzzedCaller.NotAToken, FuzzedCaller.ForeignSignature];

    private readonly Random _random = new(seed);

    public FuzzedRequest Next()
    {
        var method = Pick(Methods);
        var store = _random.Next(1, 201);
        var (path, pathKind) = NextPath(store);
        var contentType = Pick(ContentTypes);
        var key = _random.Next(10) switch
        {
            0 => "",
            1 => new string('k', 200),
            2 => "with space",
            3 => Guid.NewGuid().ToString(),
            _ => null,
        };
        var (body, bodyKind) = NextBody();
        var chunked = _random.Next(8) == 0;
        var caller = Pick(Callers);
        return new FuzzedRequest(method, path, contentType, key, body, chunked, caller, store,
            $"{method} {Shorten(path)} [{pathKind}] caller={caller} content-type={contentType ?? "none"} key={Shorten(key ?? "none")} body=[{bodyKind}]{(chunked ? " chunked" : "")}");
    }

    private (string Path, string Kind) NextPath(int validStore)
    {
        var store = validStore.ToString(CultureInfo.InvariantCulture);
        var customer = _random.Next(1, 1_000_000).ToString(CultureInfo.InvariantCulture);
        var date = "20210101";
        switch (_random.Next(6))
        {
            case 0: return (Pick(OtherPaths), "other route");
            case 1: store = Pick(BadIds); break;
            case 2: customer = Pick(BadIds); break;
            case 3: date = Pick(BadDates); break;
        }

        return ($"/purchase/{store}/customer/{customer}/date/{date}", "purchase route");
    }

    private (byte[]? Body, string Kind) NextBody()
    {
        switch (_random.Next(16))
        {
            case 0: return (null, "none");
            case 1: return ([], "empty");
            case 3: return (Utf8(ValidBody(1).Replace("\"ItemID\":", "\"ItemID\":" + Pick(BadValues) + ",\"x\":", StringComparison.Ordinal)), "bad ItemID");
            case 4: return (Utf8($$"""{"items":[{"ItemID":"5","numberOfItems":{{Pick(BadValues)}}}]}"""), "bad quantity");
            case 5: return (Utf8($$"""{"items":{{Pick(BadValues)}}}"""), "items not an array");
            case 6: return (Utf8(Pick(BadValues)), "not an object");
            case 7:
                var depth = Pick(new[] { 65, 1_000, 30_000 });
                return (Utf8("{\"items\":" + new string('[', depth) + new string(']', depth) + "}"), $"nested {depth} deep");
            case 8:
                var valid = Utf8(ValidBody(3));
                valid[_random.Next(valid.Length)] = (byte)Pick(new[] { 0xC0, 0xFF, 0x80, 0xED });
                return (valid, "invalid UTF-8");
            case 9:
                var whole = ValidBody(3);
                return (Utf8(whole[.._random.Next(whole.Length)]), "truncated");
            case 10: return (Utf8(ValidBody(1) + new string(' ', 70_000)), "oversized");
            case 11: return (Utf8(ValidBody(101)), "101 items");
            case 12: return (Utf8("\uFEFF" + ValidBody(1).Replace("{\"items\"", "{/*c*/\"items\"", StringComparison.Ordinal) + ","), "comment, BOM, trailing comma");
            case 13: return (Utf8($$"""{"items":[{"ItemID":"5","numberOfItems":1,"ItemID":"6"}],"items":[]}"""), "duplicate keys");
            default: return (Utf8(ValidBody(1 + _random.Next(5))), "valid"); // 2, 14 and 15: three in sixteen
        }
    }

    private string ValidBody(int lines)
    {
        var body = new StringBuilder("{\"items\":[");
        for (var i = 0; i < lines; i++)
        {
            body.Append(i == 0 ? "" : ",").Append(CultureInfo.InvariantCulture,
                $"{{\"ItemID\":\"{_random.Next(1, 50_001)}\",\"numberOfItems{(_random.Next(2) == 0 ? ":" : "")}\":{_random.Next(1, 10)}}}");
        }

        return body.Append("]}").ToString();
    }

    private T Pick<T>(IReadOnlyList<T> choices) => choices[_random.Next(choices.Count)];

    private static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);

    private static string Shorten(string text) => text.Length <= 60 ? text : text[..57] + "...";
}
