using Microsoft.AspNetCore.Http;
using Supermarket.Api.Insights;

namespace Supermarket.Api.Tests.Insights;

public sealed class SalesDaysTests
{
    [Theory]
    [InlineData("", null, null)]
    [InlineData("?from=20210401", "2021-04-01", null)]
    [InlineData("?to=20210407", null, "2021-04-07")]
    [InlineData("?from=20210401&to=20210401", "2021-04-01", "2021-04-01")]
    [InlineData("?from=20200229&to=20210407", "2020-02-29", "2021-04-07")]
    public void A_range_asked_is_read_as_its_days(string query, string? from, string? to)
    {
        Assert.Null(Days(query).Parse(out var first, out var last));
        Assert.Equal(from is null ? null : DateOnly.Parse(from), first);
        Assert.Equal(to is null ? null : DateOnly.Parse(to), last);
    }

    [Theory]
    [InlineData("?from=20210405&to=20210401", "from")]
    [InlineData("?from=20210230", "from")]
    [InlineData("?from=20210229", "from")]
    [InlineData("?to=2021-01-01", "to")]
    [InlineData("?to=+2021010", "to")]
    [InlineData("?from=0", "from")]
    [InlineData("?from=", "from")]
    [InlineData("?from=20210101&from=20210102", "from")]
    [InlineData("?to=20210101&to=20210101", "to")]
    public void A_range_that_is_no_range_names_its_parameter(string query, string parameter)
    {
        var error = Days(query).Parse(out _, out _);

        Assert.NotNull(error);
        Assert.Equal(parameter, error.Value.Field);
    }

    /// <summary>The parameters as minimal APIs bind them: the first value of each, and the request itself.</summary>
    private static SalesDays Days(string query)
    {
        var http = new DefaultHttpContext();
        http.Request.QueryString = new QueryString(query);
        var values = http.Request.Query;
        return new SalesDays(values.TryGetValue("from", out var from) ? from[0] : null, values.TryGetValue("to", out var to) ? to[0] : null, http.Request);
    }
}
