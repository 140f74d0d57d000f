using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;

namespace Supermarket.Database.Tests.Ledger;

public sealed class SalesLedgerEntryTests
{
    private static readonly DateOnly Day = new(2021, 4, 1);

    [Fact]
    public void Lines_come_back_as_they_went_in_including_sums_past_32_bits()
    {
        SaleLine[] lines = [new(1, 1, 1, Day), new(512, 100_000, 10_000, Day), new(7, 127, 128, Day), new(3, 5, 9_000_000_000_000, Day)];
        var decoded = new List<SaleLine>();
        SalesLedgerEntry.Decode(SalesLedgerEntry.Encode(lines), decoded);
        Assert.Equal(lines, decoded);
    }

    [Fact]
    public void Each_line_comes_back_with_its_own_day_whatever_order_the_days_came_in()
    {
        SaleLine[] lines =
        [
            new(1, 10, 1, Day.AddDays(3)), new(2, 20, 2, Day), new(1, 10, 3, Day), new(3, 30, 4, Day.AddDays(-400)),
            new(4, 40, 5, DateOnly.MaxValue), new(5, 50, 6, DateOnly.FromDayNumber(1)), new(2, 20, 7, Day.AddDays(3)),
        ];
        var decoded = new List<SaleLine>();
        SalesLedgerEntry.Decode(SalesLedgerEntry.Encode(lines), decoded);
        Assert.Equal(lines.OrderBy(line => line.Day).ThenBy(line => Array.IndexOf(lines, line)), decoded);
    }

    [Fact]
    public void An_entry_written_before_lines_carried_their_day_reads_as_undated_lines()
    {
        // Store 1 item 300 quantity 2, then store 128 item 1 quantity 1: the bare varint triples of format 0.
        byte[] written = [0x01, 0xAC, 0x02, 0x02, 0x80, 0x01, 0x01, 0x01];
        var decoded = new List<SaleLine>();
        SalesLedgerEntry.Decode(written, decoded);
        Assert.Equal([new SaleLine(1, 300, 2), new SaleLine(128, 1, 1)], decoded);
        Assert.All(decoded, line => Assert.Equal(default, line.Day));
    }

    [Fact]
    public void An_entry_without_lines_is_empty_in_either_format()
    {
        var decoded = new List<SaleLine>();
        Assert.Empty(SalesLedgerEntry.Encode([]));
        SalesLedgerEntry.Decode([], decoded);
        SalesLedgerEntry.Decode([0x00, 0x01], decoded);
        Assert.Empty(decoded);
    }

    [Fact]
    public void A_dating_entry_holds_no_sale_only_the_days_of_sales_counted_before()
    {
        SaleLine[] dated = [new(1, 10, 3, Day), new(2, 11, 4, Day.AddDays(1))];
        var entry = SalesLedgerEntry.EncodeDating(dated);
        var sales = new List<SaleLine>();
        var days = new List<SaleLine>();

        SalesLedgerEntry.Decode(entry, sales);
        SalesLedgerEntry.DecodeDays(entry, days);

        Assert.Empty(sales);
        Assert.Equal(dated, days);
        Assert.True(SalesLedgerEntry.IsDating(entry));
        Assert.False(SalesLedgerEntry.IsDating(SalesLedgerEntry.Encode(dated)));
        Assert.True(SalesLedgerEntry.IsUndated([0x01, 0x01, 0x01]));
        Assert.False(SalesLedgerEntry.IsUndated(entry));
        Assert.Throws<FormatException>(() => SalesLedgerEntry.DecodeDays(SalesLedgerEntry.Encode(dated), days));
    }

    [Fact]
    public void A_line_without_a_day_is_never_written()
    {
        Assert.Throws<ArgumentException>(() => SalesLedgerEntry.Encode([new SaleLine(1, 1, 1, Day), new SaleLine(1, 2, 1)]));
    }

    [Theory]
    [InlineData(new byte[] { 0x00 })]
    [InlineData(new byte[] { 0x00, 0x03, 0x01, 0x01, 0x01, 0x01, 0x01 })]
    [InlineData(new byte[] { 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x01 })]
    public void An_entry_of_a_format_or_day_this_version_cannot_read_is_a_format_error(byte[] entry)
    {
        Assert.Throws<FormatException>(() => SalesLedgerEntry.Decode(entry, []));
    }

    [Fact]
    public void A_truncated_entry_is_a_format_error_not_a_wrong_line()
    {
        var encoded = SalesLedgerEntry.Encode([new SaleLine(300, 100_000, 10_000, Day), new SaleLine(3, 1, 1, Day.AddDays(1))]);
        Assert.Throws<FormatException>(() => SalesLedgerEntry.Decode(encoded.AsSpan(0, encoded.Length - 1), []));
        // Cut inside the first group: its count promises a line that is not there.
        Assert.Throws<FormatException>(() => SalesLedgerEntry.Decode(encoded.AsSpan(0, 6), []));
    }
}
