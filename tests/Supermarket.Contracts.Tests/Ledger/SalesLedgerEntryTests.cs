using Supermarket.Contracts.Ledger;

namespace Supermarket.Contracts.Tests.Ledger;

public sealed class SalesLedgerEntryTests
{
    [Fact]
    public void Lines_come_back_as_they_went_in_including_sums_past_32_bits()
    {
        SaleLine[] lines = [new(1, 1, 1), new(512, 100_000, 10_000), new(7, 127, 128), new(3, 5, 9_000_000_000_000)];
        var decoded = new List<SaleLine>();
        SalesLedgerEntry.Decode(SalesLedgerEntry.Encode(lines), decoded);
        Assert.Equal(lines, decoded);
    }

    [Fact]
    public void A_truncated_entry_is_a_format_error_not_a_wrong_line()
    {
        var encoded = SalesLedgerEntry.Encode([new SaleLine(300, 100_000, 10_000)]);
        Assert.Throws<FormatException>(() => SalesLedgerEntry.Decode(encoded.AsSpan(0, encoded.Length - 1), []));
    }
}
