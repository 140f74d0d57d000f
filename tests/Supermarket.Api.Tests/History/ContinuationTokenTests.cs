using Supermarket.Api.History;
using Supermarket.Contracts.History;

namespace Supermarket.Api.Tests.History;

public sealed class ContinuationTokenTests
{
    private static readonly DateOnly Day = new(2022, 3, 15);
    private static readonly HistoryPosition Position = new(Day, new DateTimeOffset(2026, 11, 22, 9, 15, 2, TimeSpan.Zero).AddTicks(4173010), Guid.CreateVersion7());

    [Fact]
    public void A_token_reads_back_as_the_position_it_was_written_from()
    {
        var token = ContinuationToken.Write(ContinuationToken.Kind.Store, 55, Day, Position);

        Assert.Null(ContinuationToken.TryRead(token, ContinuationToken.Kind.Store, 55, Day, out var read));
        Assert.Equal(Position, read);
        Assert.Matches("^[A-Za-z0-9_-]+$", token);
    }

    [Fact]
    public void No_token_is_the_first_page()
    {
        Assert.Null(ContinuationToken.TryRead(null, ContinuationToken.Kind.Customer, 1, default, out var position));
        Assert.Null(position);
        Assert.Null(ContinuationToken.TryRead("", ContinuationToken.Kind.Customer, 1, default, out position));
        Assert.Null(position);
    }

    [Theory]
    [InlineData(ContinuationToken.Kind.Store, 56, 0)]
    [InlineData(ContinuationToken.Kind.Store, 55, 1)]
    [InlineData(ContinuationToken.Kind.Customer, 55, 0)]
    public void A_token_of_another_question_is_refused(ContinuationToken.Kind kind, int subject, int daysLater)
    {
        var token = ContinuationToken.Write(ContinuationToken.Kind.Store, 55, Day, Position);

        var error = ContinuationToken.TryRead(token, kind, subject, Day.AddDays(daysLater), out var position);

        Assert.Equal(ContinuationToken.Field, error?.Field);
        Assert.Null(position);
    }

    [Theory]
    [InlineData("not-a-token")]
    [InlineData("%%%")]
    [InlineData("AAAA")]
    [InlineData("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")]
    [InlineData("AQEAAAA3AAt_zQALf80IPbM5WmuSNgGam14_HHwqnU4KGywtPk5fAAAA")]
    public void Anything_else_is_refused(string text)
    {
        Assert.Equal(ContinuationToken.Field, ContinuationToken.TryRead(text, ContinuationToken.Kind.Store, 55, Day, out _)?.Field);
    }

    [Fact]
    public void Any_text_is_read_or_refused_never_thrown()
    {
        const string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/%. \u0000é";
        var random = new Random(20221122);
        for (var i = 0; i < 20_000; i++)
        {
            var text = new string([.. Enumerable.Range(0, random.Next(0, 80)).Select(_ => alphabet[random.Next(alphabet.Length)])]);
            var error = ContinuationToken.TryRead(text, ContinuationToken.Kind.Customer, 7, default, out var position);
            Assert.True(error is null || position is null, text);
        }
    }
}
