extern alias Aggregator;

using Aggregator::Supermarket.SalesAggregator.Ledger;

namespace Supermarket.UnitTests.Store;

public sealed class AppliedEntriesTests
{
    private static readonly DateTimeOffset Now = new(2026, 11, 22, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public void Each_seq_is_applied_once_in_any_order()
    {
        var applied = new AppliedEntries();
        Assert.True(applied.TryAdd(1, Now));
        Assert.True(applied.TryAdd(4, Now)); // 2 and 3 are still in flight
        Assert.Equal([new AppliedEntries.Gap(2, 3, Now)], applied.Gaps);
        Assert.True(applied.TryAdd(3, Now));
        Assert.False(applied.TryAdd(3, Now));
        Assert.False(applied.TryAdd(4, Now));
        Assert.False(applied.TryAdd(1, Now));
        Assert.True(applied.TryAdd(2, Now));
        Assert.Empty(applied.Gaps);
        Assert.Equal(4, applied.Max);
    }

    [Fact]
    public void A_seq_inside_a_gap_splits_it()
    {
        var applied = new AppliedEntries();
        Assert.True(applied.TryAdd(10, Now));
        Assert.True(applied.TryAdd(5, Now));
        Assert.Equal([new AppliedEntries.Gap(1, 4, Now), new AppliedEntries.Gap(6, 9, Now)], applied.Gaps);
    }

    [Fact]
    public void Gaps_older_than_the_cutoff_are_given_up_and_the_rest_kept()
    {
        var applied = new AppliedEntries();
        applied.TryAdd(3, Now);
        applied.TryAdd(6, Now.AddMinutes(10));
        Assert.Equal(2, applied.GiveUpGapsSeenBefore(Now.AddMinutes(5)));
        Assert.Equal([new AppliedEntries.Gap(4, 5, Now.AddMinutes(10))], applied.Gaps);
        Assert.False(applied.TryAdd(1, Now.AddMinutes(11)));
    }

    [Fact]
    public void Restored_entries_keep_their_gaps()
    {
        var applied = AppliedEntries.Restore(100, [(7, 9)], Now);
        Assert.False(applied.TryAdd(50, Now));
        Assert.True(applied.TryAdd(8, Now));
        Assert.True(applied.TryAdd(101, Now));
        Assert.Equal([new AppliedEntries.Gap(7, 7, Now), new AppliedEntries.Gap(9, 9, Now)], applied.Gaps);
    }
}
