using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;

namespace Supermarket.SalesCounting.Tests;

public sealed class SalesByDayTests
{
    private static readonly DateOnly Day0 = new(2026, 1, 1);

    private static DateOnly Day(int offset) => Day0.AddDays(offset);

    /// <summary>Random lines over random days (in random order, so days arrive late and far ahead and fall out), of a
    /// shard's items, small quantities (many ties): every ranking over random ranges equals a brute-force sum of the
    /// days a straightforward model keeps, with the days in tables, packed, or packed with later lines in tables beside;
    /// with more stores than a 64-bit word of a day's stores of an item holds, too, and with few stores, so that each
    /// sells enough of the items a day to be packed as a bitmap; and with the days' lists by item in blocks of a few days
    /// (packed again when later lines come, falling out a day at a time).</summary>
    [Theory]
    [InlineData(1, 1_000, SalesByDay.DefaultUnsealedBytesLimit)]
    [InlineData(2, 12, SalesByDay.DefaultUnsealedBytesLimit)]
    [InlineData(3, 5, SalesByDay.DefaultUnsealedBytesLimit)]
    [InlineData(4, 1, SalesByDay.DefaultUnsealedBytesLimit)]
    [InlineData(5, 1_000, 0)]
    [InlineData(6, 12, 20_000)]
    [InlineData(7, 5, 50_000)]
    [InlineData(8, 1, 2_000)]
    [InlineData(9, 12, SalesByDay.DefaultUnsealedBytesLimit, 150)]
    [InlineData(10, 5, 20_000, 150)]
    [InlineData(11, 1_000, SalesByDay.DefaultUnsealedBytesLimit, 3, 6)]
    [InlineData(12, 1_000, 0, 3, 6)]
    [InlineData(13, 4, 20_000, 3, 6)]
    [InlineData(14, 5, 2_000, 2)]
    [InlineData(15, 1_000, 0, 23, 70, 4)]
    [InlineData(16, 30, 20_000, 23, 70, 3)]
    [InlineData(17, 1_000, 2_000, 150, 90, 32)]
    [InlineData(18, 1_000, 50_000, 3, 70, 5)]
    public void Rankings_over_any_range_equal_a_brute_force_sum_of_the_days_kept(
        int seed, int daysKept, long unsealedBytesLimit, int stores = 23, int dayCount = 40, int daysPerBlock = 32)
    {
        const int catalog = 1_200;
        var items = new ItemRange(401, 1_000);
        var sales = new SalesByDay(stores, items, daysKept, unsealedBytesLimit, daysPerBlock);
        var model = new KeptDaysModel(daysKept);
        var random = new Random(seed);
        for (var batch = 0; batch < 300; batch++)
        {
            var lines = Enumerable.Range(0, random.Next(1, 60)).Select(_ => new SaleLine(
                random.Next(1, stores + 1), random.Next(1, catalog + 1), random.Next(0, 3), Day(random.Next(0, dayCount)))).ToArray();
            Assert.Equal(lines.Sum(model.Record(items)), sales.RecordSales(lines));
        }

        Assert.Equal(model.FirstDayAnswerable, sales.FirstDayAnswerable);
        Assert.Equal(model.Kept.Min(), sales.FirstDayKept);
        Assert.Equal(model.Kept.Max(), sales.LastDayKept);
        for (var question = 0; question < 400; question++)
        {
            var from = Day(random.Next(-3, dayCount + 3));
            var to = from.AddDays(random.Next(0, Math.Max(20, dayCount)));
            var k = new[] { 1, 5, 10, 100 }[random.Next(4)];
            var best = new RankedSales[k];
            var store = random.Next(1, stores + 1);
            Assert.Equal(
                model.Rank(Enumerable.Range(items.First, items.Count), item => model.Units(store, item, from, to), k),
                best[..sales.TopItemsAtStore(store, from, to, best)]);
            var itemId = random.Next(items.First, items.Last + 1);
            Assert.Equal(
                model.Rank(Enumerable.Range(1, stores), s => model.Units(s, itemId, from, to), k),
                best[..sales.TopStoresForItem(itemId, from, to, best)]);
        }
    }

    [Fact]
    public void Ties_go_to_the_lower_id_whatever_order_the_items_sold_in()
    {
        var sales = new SalesByDay(9, new ItemRange(1, 1_000), 10);
        // Sold highest id first, over two days, so neither a table's order nor arrival order gives the answer.
        sales.RecordSales([new(9, 900, 2, Day(1)), new(5, 900, 2, Day(1)), new(9, 300, 1, Day(1)), new(9, 300, 1, Day(2)), new(9, 7, 2, Day(2))]);
        sales.RecordSales([new(1, 900, 1, Day(1)), new(1, 900, 1, Day(2))]);
        var best = new RankedSales[2];

        Assert.Equal([new RankedSales(7, 2), new RankedSales(300, 2)], best[..sales.TopItemsAtStore(9, Day(1), Day(2), best)]);
        Assert.Equal([new RankedSales(1, 2), new RankedSales(5, 2)], best[..sales.TopStoresForItem(900, Day(1), Day(2), best)]);
        Assert.Equal([new RankedSales(5, 2), new RankedSales(9, 2)], best[..sales.TopStoresForItem(900, Day(1), Day(1), best)]);
        Assert.Equal([new RankedSales(900, 2), new RankedSales(300, 1)], best[..sales.TopItemsAtStore(9, Day(1), Day(1), best)]);
    }

    /// <summary>Days kept are days with sales: a day far ahead pushes out only the oldest; a line older than every day
    /// kept while the days are full is left out; the first day answerable follows what was dropped.</summary>
    [Fact]
    public void Days_with_sales_fall_out_oldest_first_and_older_lines_are_left_out()
    {
        var sales = new SalesByDay(4, new ItemRange(1, 100), daysKept: 3);
        var best = new RankedSales[10];
        Assert.Null(sales.FirstDayKept);
        Assert.Equal(0, sales.TopItemsAtStore(1, Day(0), Day(500), best));

        // Lines that sell nothing here make no day: another shard's item, no units, undated.
        Assert.Equal(1, sales.RecordSales([new(1, 101, 5, Day(-9)), new(1, 5, 0, Day(-8)), new(1, 5, 4)]));
        Assert.Null(sales.FirstDayKept);

        Assert.Equal(0, sales.RecordSales([new(1, 5, 1, Day(10)), new(1, 5, 1, Day(2)), new(1, 5, 1, Day(20)), new(1, 5, 1, Day(10))]));
        Assert.Equal((Day(2), Day(20), DateOnly.MinValue), (sales.FirstDayKept, sales.LastDayKept, sales.FirstDayAnswerable));
        // Nothing fell out yet: a range reaching before the first day kept is exact.
        Assert.Equal([new RankedSales(5, 4)], best[..sales.TopItemsAtStore(1, Day(-100), Day(100), best)]);

        Assert.Equal(0, sales.RecordSales([new(1, 5, 7, Day(400))]));
        Assert.Equal((Day(10), Day(400), Day(3)), (sales.FirstDayKept, sales.LastDayKept, sales.FirstDayAnswerable));
        Assert.Equal([new RankedSales(5, 10)], best[..sales.TopItemsAtStore(1, Day(3), Day(400), best)]);

        // Older than every day kept: left out, and nothing before it can be answered any more.
        Assert.Equal(1, sales.RecordSales([new(1, 5, 1, Day(5)), new(2, 5, 1, Day(10))]));
        Assert.Equal((Day(10), Day(6)), (sales.FirstDayKept, sales.FirstDayAnswerable));
        // Between the days kept: a new day, later than the oldest, which falls out.
        Assert.Equal(0, sales.RecordSales([new(1, 5, 1, Day(11))]));
        Assert.Equal((Day(11), Day(11)), (sales.FirstDayKept, sales.FirstDayAnswerable));
        Assert.Equal([new RankedSales(1, 9)], best[..sales.TopStoresForItem(5, Day(11), Day(400), best)]);
    }

    [Fact]
    public void Lines_outside_the_catalog_and_negative_ones_are_left_out_and_counted_not_thrown()
    {
        var sales = new SalesByDay(3, new ItemRange(11, 20), 5);
        var leftOut = sales.RecordSales(
            [new(1, 15, 2, Day(1)), new(4, 15, 1, Day(1)), new(0, 15, 1, Day(1)), new(1, 0, 1, Day(1)), new(1, 15, -1, Day(1)),
             new(1, 5, -1, Day(1)), new(1, 5, 1, Day(1)), new(1, 25, 1, Day(1)), new(1, 15, 1), new(1, 15, 3, Day(1))]);
        var best = new RankedSales[10];

        Assert.Equal(6, leftOut);
        Assert.Equal([new RankedSales(15, 5)], best[..sales.TopItemsAtStore(1, Day(1), Day(1), best)]);
    }

    [Fact]
    public void A_days_count_goes_past_the_32_bit_range_and_ranks_by_the_true_total()
    {
        var sales = new SalesByDay(3, new ItemRange(1, 50), 5);
        for (var i = 0; i < 2_200; i++)
        {
            sales.RecordSales([new(2, 7, 1_000_000, Day(1)), new(2, i % 40 + 10, 1, Day(1))]);
        }

        sales.RecordSales([new(2, 8, 5_000_000_000, Day(1)), new(2, 9, 3, Day(2))]);
        var best = new RankedSales[3];

        Assert.Equal([new RankedSales(8, 5_000_000_000), new RankedSales(7, 2_200_000_000), new RankedSales(10, 55)], best[..sales.TopItemsAtStore(2, Day(1), Day(1), best)]);
        Assert.Equal([new RankedSales(8, 5_000_000_000), new RankedSales(7, 2_200_000_000), new RankedSales(10, 55)], best[..sales.TopItemsAtStore(2, Day(0), Day(2), best)]);
        Assert.Equal([new RankedSales(2, 2_200_000_000)], best[..sales.TopStoresForItem(7, Day(1), Day(2), best)]);
    }

    /// <summary>A range's units a key are added up a byte at a time before they reach the counts: a byte that passes
    /// 255, a unit at a time or many at once, carries into them. Store 1 sold every item each day (a bitmap), item 7
    /// two units (one beyond the bitmap's); store 2 a few (a list): item 3 200 units on each of three days, item 4 one
    /// a day, item 5 300 at once.</summary>
    [Theory]
    [InlineData(SalesByDay.DefaultUnsealedBytesLimit)]
    [InlineData(0)]
    public void Units_past_what_a_byte_holds_carry_exactly(long unsealedBytesLimit)
    {
        const int days = 300;
        var sales = new SalesByDay(2, new ItemRange(1, 100), daysKept: 400, unsealedBytesLimit);
        for (var day = 0; day < days; day++)
        {
            sales.RecordSales(
            [
                .. Enumerable.Range(1, 100).Select(item => new SaleLine(1, item, item == 7 ? 2 : 1, Day(day))),
                new(2, 4, 1, Day(day)),
                .. day < 3 ? [new SaleLine(2, 3, 200, Day(day))] : Array.Empty<SaleLine>(),
                .. day == 5 ? [new SaleLine(2, 5, 300, Day(day))] : Array.Empty<SaleLine>(),
            ]);
        }

        var best = new RankedSales[3];
        foreach (var (from, to) in new[] { (0, days - 1), (0, 254), (0, 255), (0, 256), (1, 256), (10, 280) })
        {
            var n = to - from + 1;
            Assert.Equal([new RankedSales(7, 2 * n), new RankedSales(1, n), new RankedSales(2, n)], best[..sales.TopItemsAtStore(1, Day(from), Day(to), best)]);
            var atStoreTwo = new[] { new RankedSales(3, 200 * Math.Max(0, Math.Min(to, 2) - from + 1)), new RankedSales(4, n), new RankedSales(5, from <= 5 ? 300 : 0) }
                .Where(r => r.Units > 0).OrderByDescending(r => r.Units).ThenBy(r => r.Id);
            Assert.Equal(atStoreTwo, best[..sales.TopItemsAtStore(2, Day(from), Day(to), best)]);
        }
    }

    [Fact]
    public void Questions_out_of_range_are_refused()
    {
        var sales = new SalesByDay(4, new ItemRange(1, 100), 5);
        var best = new RankedSales[10];

        Assert.Throws<ArgumentOutOfRangeException>(() => sales.TopItemsAtStore(0, Day(1), Day(1), best));
        Assert.Throws<ArgumentOutOfRangeException>(() => sales.TopItemsAtStore(5, Day(1), Day(1), best));
        Assert.Throws<ArgumentOutOfRangeException>(() => sales.TopStoresForItem(101, Day(1), Day(1), best));
        Assert.Throws<ArgumentOutOfRangeException>(() => sales.TopItemsAtStore(1, Day(2), Day(1), best));
        Assert.Throws<ArgumentOutOfRangeException>(() => sales.TopItemsAtStore(1, Day(1), Day(1), new RankedSales[101]));
    }

    /// <summary>What is saved is loaded back: the same rankings, days, first day answerable and checksum; one more
    /// line changes the checksum, a file damaged anywhere is refused and leaves the content as it was.</summary>
    [Fact]
    public void Save_and_load_round_trip_with_the_same_checksum()
    {
        var sales = new SalesByDay(17, new ItemRange(1, 300), 6);
        var random = new Random(7);
        for (var i = 0; i < 5_000; i++)
        {
            sales.RecordSales([new(random.Next(1, 18), random.Next(1, 301), random.Next(1, 4) == 3 ? 3_000_000_000 : random.Next(1, 5), Day(random.Next(0, 9)))]);
        }

        // Packed (most stores' items as bitmaps), then a few lines beside.
        sales.Seal();
        sales.RecordSales([new(3, 7, 2, Day(4)), new(17, 300, 1, Day(8))]);

        var saved = new MemoryStream();
        sales.Save(saved);
        var loaded = new SalesByDay(17, new ItemRange(1, 300), 6);
        loaded.RecordSales([new(1, 1, 1, Day(-50))]);
        loaded.Load(new MemoryStream(saved.ToArray()));

        Assert.Equal(sales.Checksum(), loaded.Checksum());
        Assert.Equal((sales.FirstDayKept, sales.LastDayKept, sales.FirstDayAnswerable), (loaded.FirstDayKept, loaded.LastDayKept, loaded.FirstDayAnswerable));
        Assert.NotEqual(DateOnly.MinValue, loaded.FirstDayAnswerable);
        var (expected, actual) = (new RankedSales[100], new RankedSales[100]);
        for (var from = -1; from < 10; from++)
        {
            for (var to = from; to < 10; to++)
            {
                for (var store = 1; store <= 17; store++)
                {
                    Assert.Equal(expected[..sales.TopItemsAtStore(store, Day(from), Day(to), expected)], actual[..loaded.TopItemsAtStore(store, Day(from), Day(to), actual)]);
                }

                Assert.Equal(expected[..sales.TopStoresForItem(42, Day(from), Day(to), expected)], actual[..loaded.TopStoresForItem(42, Day(from), Day(to), actual)]);
            }
        }

        loaded.RecordSales([new(1, 1, 1, Day(8))]);
        Assert.NotEqual(sales.Checksum(), loaded.Checksum());

        var before = loaded.Checksum();
        for (var at = 0; at < saved.Length; at += 61)
        {
            var damaged = saved.ToArray();
            damaged[at] ^= 0x5A;
            Assert.ThrowsAny<Exception>(() => loaded.Load(new MemoryStream(damaged)));
            Assert.Equal(before, loaded.Checksum());
        }

        Assert.Throws<InvalidDataException>(() => new SalesByDay(18, new ItemRange(1, 300), 6).Load(new MemoryStream(saved.ToArray())));

        loaded.Clear();
        Assert.Equal((null, DateOnly.MinValue, 0L), (loaded.FirstDayKept, loaded.FirstDayAnswerable, loaded.Bytes));
    }

    /// <summary>A file of the first version (each cell as numbers, compressed), as a checkpoint taken before the
    /// packed days holds it, loads the same content: written by that version from <see cref="FirstVersionLines"/>,
    /// then two more lines recorded after packing.</summary>
    [Fact]
    public void A_file_of_the_first_version_still_loads()
    {
        const string FirstVersionFile = "eAEKdnIxZGRgYOBmYGDQYGBgYGVgYIjx5GZgYWBgiPXkBvNB8iAsysDAwMYAAUwMDAwgMX4kMWaoGCeSGMgckDqQHEwvyA6QmDSSujg0uwQYGBhAdoBsA9Eg9VxIYiDzQGIg80HyIHUgNkhMBkkdzC4xJLF4NLtAfgfpBZkBMgtkBkgfTAxmlywDAzhcQOpAciB14khiID0gMUEksQQ0u0BhAMIgM0B2wTDIPJCYHFKYwOyVQBIDqQPZIYQkBrIXZA4PkhjIHIa4C5tAZgIAAAD//wMAtGQI0A==";
        var expected = new SalesByDay(5, new ItemRange(11, 40), daysKept: 4);
        expected.RecordSales(FirstVersionLines());
        expected.RecordSales([new(2, 12, 4, new DateOnly(2026, 3, 6)), new(5, 40, 3_000_000_000, new DateOnly(2026, 3, 6))]);

        var loaded = new SalesByDay(5, new ItemRange(11, 40), daysKept: 4);
        loaded.Load(new MemoryStream(Convert.FromBase64String(FirstVersionFile)));

        Assert.Equal(6388294648703797439UL, expected.Checksum());
        Assert.Equal(expected.Checksum(), loaded.Checksum());
        Assert.Equal((new DateOnly(2026, 3, 3), new DateOnly(2026, 3, 3)), (loaded.FirstDayKept, loaded.FirstDayAnswerable));
        var (best, expectedBest) = (new RankedSales[10], new RankedSales[10]);
        Assert.Equal(expectedBest[..expected.TopStoresForItem(40, new DateOnly(2026, 3, 3), new DateOnly(2026, 3, 6), expectedBest)], best[..loaded.TopStoresForItem(40, new DateOnly(2026, 3, 3), new DateOnly(2026, 3, 6), best)]);
    }

    /// <summary>A file of the second version (every store's cells as a list), as a checkpoint taken before a store's
    /// items could be a bitmap holds it, loads the same content, now with bitmaps: written by that version (main at
    /// 3983a27) from <see cref="FirstVersionLines"/> packed, then two more lines in tables.</summary>
    [Fact]
    public void A_file_of_the_second_version_still_loads()
    {
        const string SecondVersionFile = "U0JEMgIAAAALAAAAKAAAAAUAAABcSQsABAAAAF1JCwABAQEBAQHVz8nD2wAAAABeSQsAAQEBAQEBUEpEXFYAAAAAX0kLAAEBAQEBAYuFnZeRAAAAAGBJCwABAQEBAQHG3tjSzAIAAAACAQIEBQEegLzBlgsE27x0Dea3RA==";
        var expected = new SalesByDay(5, new ItemRange(11, 40), daysKept: 4);
        expected.RecordSales(FirstVersionLines());
        expected.RecordSales([new(2, 12, 4, new DateOnly(2026, 3, 6)), new(5, 40, 3_000_000_000, new DateOnly(2026, 3, 6))]);
        expected.Seal();

        var loaded = new SalesByDay(5, new ItemRange(11, 40), daysKept: 4);
        loaded.Load(new MemoryStream(Convert.FromBase64String(SecondVersionFile)));

        Assert.Equal(6388294648703797439UL, loaded.Checksum());
        var (best, expectedBest) = (new RankedSales[10], new RankedSales[10]);
        for (var from = new DateOnly(2026, 3, 3); from <= new DateOnly(2026, 3, 6); from = from.AddDays(1))
        {
            for (var store = 1; store <= 5; store++)
            {
                Assert.Equal(expectedBest[..expected.TopItemsAtStore(store, from, new DateOnly(2026, 3, 6), expectedBest)], best[..loaded.TopItemsAtStore(store, from, new DateOnly(2026, 3, 6), best)]);
            }

            Assert.Equal(expectedBest[..expected.TopStoresForItem(40, from, new DateOnly(2026, 3, 6), expectedBest)], best[..loaded.TopStoresForItem(40, from, new DateOnly(2026, 3, 6), best)]);
        }
    }

    /// <summary>A file of the third version (each packed day's cells by store alone, packed again by item as it is
    /// read), as a checkpoint taken before the days were saved as they are held holds it, loads the same content:
    /// written by that version (main at 9a4d37e) from <see cref="FirstVersionLines"/> and a day after them, packed in
    /// blocks of two days, then two more lines in tables.</summary>
    [Fact]
    public void A_file_of_the_third_version_still_loads()
    {
        const string ThirdVersionFile = "U0JEMgMAAAALAAAAKAAAAAUAAABcSQsABQAAAF1JCwABAgICAgLVz8nD2wAAAABeSQsAAQICAgICUEpEXFYAAAAAX0kLAAECAgICAouFnZeRAAAAAGBJCwABAgICAgLG3tjSzAIAAAACAQIEBQEegLzBlgthSQsAAQAAAAAC4QAAAADcsPKMNlXMrQ==";
        var expected = new SalesByDay(5, new ItemRange(11, 40), daysKept: 5, daysPerBlock: 2);
        expected.RecordSales(FirstVersionLines());
        expected.RecordSales([new(5, 11, 7, new DateOnly(2026, 3, 7))]);
        expected.Seal();
        expected.RecordSales([new(2, 12, 4, new DateOnly(2026, 3, 6)), new(5, 40, 3_000_000_000, new DateOnly(2026, 3, 6))]);

        var loaded = new SalesByDay(5, new ItemRange(11, 40), daysKept: 5, daysPerBlock: 2);
        loaded.Load(new MemoryStream(Convert.FromBase64String(ThirdVersionFile)));

        Assert.Equal(16926552616655274909UL, loaded.Checksum());
        Assert.Equal(expected.Checksum(), loaded.Checksum());
        var (best, expectedBest) = (new RankedSales[10], new RankedSales[10]);
        for (var from = new DateOnly(2026, 3, 3); from <= new DateOnly(2026, 3, 7); from = from.AddDays(1))
        {
            for (var to = from; to <= new DateOnly(2026, 3, 7); to = to.AddDays(1))
            {
                for (var store = 1; store <= 5; store++)
                {
                    Assert.Equal(expectedBest[..expected.TopItemsAtStore(store, from, to, expectedBest)], best[..loaded.TopItemsAtStore(store, from, to, best)]);
                }

                for (var item = 11; item <= 40; item++)
                {
                    Assert.Equal(expectedBest[..expected.TopStoresForItem(item, from, to, expectedBest)], best[..loaded.TopStoresForItem(item, from, to, best)]);
                }
            }
        }
    }

    private static SaleLine[] FirstVersionLines() =>
        [.. Enumerable.Range(0, 60).Select(i => new SaleLine(1 + (i * 7 % 5), 11 + (i * 13 % 30), 1 + (i % 3), new DateOnly(2026, 3, 1).AddDays(i % 6)))];

    /// <summary>Packing the days changes their memory, not their content: the checksum, what a file of them loads
    /// back and every ranking are the same; lines recorded after go beside the packed cells, and a day packed again holds both.</summary>
    [Fact]
    public void Packing_keeps_the_content_and_takes_less_memory()
    {
        var sales = new SalesByDay(40, new ItemRange(1, 2_000), 10);
        var random = new Random(3);
        var lines = Enumerable.Range(0, 20_000).Select(_ => new SaleLine(random.Next(1, 41), random.Next(1, 2_001), random.Next(1, 3), Day(random.Next(0, 4)))).ToArray();
        sales.RecordSales(lines);
        var (checksum, bytes, file) = (sales.Checksum(), sales.Bytes, Saved(sales));
        var rankings = Rankings(sales);

        sales.Seal();

        Assert.Equal(checksum, sales.Checksum());
        Assert.Equal(file, Saved(sales));
        Assert.Equal(rankings, Rankings(sales));
        Assert.True(sales.Bytes * 3 < bytes, $"packed {sales.Bytes:N0} bytes, in tables {bytes:N0}");

        var later = new SaleLine[] { new(1, 5, 7, Day(1)), new(2, 5, 1_000_000_000_000, Day(2)), new(40, 2_000, 1, Day(0)) };
        sales.RecordSales(later);
        var (besideChecksum, besideFile, besideRankings) = (sales.Checksum(), Saved(sales), Rankings(sales));
        sales.Seal();
        Assert.Equal(besideChecksum, sales.Checksum());
        Assert.Equal(besideFile, Saved(sales));
        Assert.Equal(besideRankings, Rankings(sales));

        var inTables = new SalesByDay(40, new ItemRange(1, 2_000), 10);
        inTables.RecordSales([.. lines, .. later]);
        Assert.Equal(inTables.Checksum(), sales.Checksum());
        Assert.Equal(Rankings(inTables), Rankings(sales));

        static (ulong, string) Saved(SalesByDay sales)
        {
            var saved = new MemoryStream();
            sales.Save(saved);
            var loaded = new SalesByDay(40, new ItemRange(1, 2_000), 10);
            loaded.Load(new MemoryStream(saved.ToArray()));
            return (loaded.Checksum(), Rankings(loaded));
        }

        static string Rankings(SalesByDay sales)
        {
            var best = new RankedSales[100];
            var all = new System.Text.StringBuilder();
            for (var from = 0; from < 4; from++)
            {
                for (var to = from; to < 4; to++)
                {
                    for (var store = 1; store <= 40; store++)
                    {
                        all.AppendJoin(' ', best[..sales.TopItemsAtStore(store, Day(from), Day(to), best)].ToArray()).Append('|');
                    }

                    for (var item = 1; item <= 2_000; item += 37)
                    {
                        all.AppendJoin(' ', best[..sales.TopStoresForItem(item, Day(from), Day(to), best)].ToArray()).Append('|');
                    }

                    all.AppendJoin(' ', best[..sales.TopStoresForItem(5, Day(from), Day(to), best)].ToArray()).Append('|');
                }
            }

            return all.ToString();
        }
    }

    /// <summary>Packed days but the latest few hand their lists by item to blocks: the content, the file and the
    /// rankings stay those of the same lines unpacked, the memory is less than with a block a day (each day's start of
    /// every item's list), and a file read back forms the same blocks.</summary>
    [Fact]
    public void Blocks_keep_the_content_and_take_less_memory_than_a_day_apiece()
    {
        const int stores = 30, itemCount = 3_000, dayCount = 40;
        var random = new Random(5);
        var lines = Enumerable.Range(0, 60_000).Select(i => new SaleLine(random.Next(1, stores + 1), random.Next(1, itemCount + 1), random.Next(1, 3), Day(i * dayCount / 60_000))).ToArray();
        var inTables = new SalesByDay(stores, new ItemRange(1, itemCount), 50);
        var inBlocks = new SalesByDay(stores, new ItemRange(1, itemCount), 50, daysPerBlock: 8);
        var dayApiece = new SalesByDay(stores, new ItemRange(1, itemCount), 50, daysPerBlock: 1);
        foreach (var sales in new[] { inTables, inBlocks, dayApiece })
        {
            sales.RecordSales(lines);
        }

        inBlocks.Seal();
        dayApiece.Seal();

        Assert.Equal(inTables.Checksum(), inBlocks.Checksum());
        var expected = Rankings(inTables);
        Assert.Equal(expected, Rankings(inBlocks));
        Assert.True(inBlocks.Bytes < dayApiece.Bytes - ((dayCount - 8) * itemCount * 2), $"in blocks {inBlocks.Bytes:N0} bytes, a block a day {dayApiece.Bytes:N0}");

        var saved = new MemoryStream();
        inBlocks.Save(saved);
        var loaded = new SalesByDay(stores, new ItemRange(1, itemCount), 50, daysPerBlock: 8);
        loaded.Load(new MemoryStream(saved.ToArray()));
        Assert.Equal(inBlocks.Checksum(), loaded.Checksum());
        Assert.Equal(inBlocks.Bytes, loaded.Bytes);
        Assert.Equal(expected, Rankings(loaded));

        static string Rankings(SalesByDay sales)
        {
            var best = new RankedSales[10];
            var all = new System.Text.StringBuilder();
            foreach (var (from, to) in new[] { (0, dayCount - 1), (3, 20), (8, 15), (9, 9), (30, 39) })
            {
                for (var item = 1; item <= itemCount; item += 13)
                {
                    all.AppendJoin(' ', best[..sales.TopStoresForItem(item, Day(from), Day(to), best)].ToArray()).Append('|');
                }

                all.AppendJoin(' ', best[..sales.TopItemsAtStore(7, Day(from), Day(to), best)].ToArray()).Append('|');
            }

            return all.ToString();
        }
    }

    /// <summary>Where every store sells most items: a block holds an item's totals over its days, not
    /// each day's list, so its days take a fraction of what a block a day takes; ranges holding all, part or none of a
    /// block's days, with a day of it packed again after a late line and its oldest days fallen out, still equal the
    /// same lines kept in tables.</summary>
    [Fact]
    public void Blocks_of_dense_days_hold_totals_and_rank_as_tables_do()
    {
        const int stores = 16, itemCount = 2_000, dayCount = 40;
        var random = new Random(7);
        var inTables = new SalesByDay(stores, new ItemRange(1, itemCount), 38, long.MaxValue);
        var inBlocks = new SalesByDay(stores, new ItemRange(1, itemCount), 38, daysPerBlock: 8);
        var dayApiece = new SalesByDay(stores, new ItemRange(1, itemCount), 38, daysPerBlock: 1);
        for (var day = 0; day < dayCount; day++)
        {
            var lines = new List<SaleLine>();
            for (var store = 1; store <= stores; store++)
            {
                for (var item = 1; item <= itemCount; item++)
                {
                    if (random.Next(2) == 0)
                    {
                        lines.Add(new SaleLine(store, item, random.Next(1, 3), Day(day)));
                    }
                }
            }

            // More over a block than a store's totals hold in their planes (15).
            lines.Add(new SaleLine(3, 7, 1_000, Day(day)));

            // Packed day by day, so blocks form as days come and the oldest fall out of a block.
            foreach (var sales in new[] { inTables, inBlocks, dayApiece })
            {
                sales.RecordSales([.. lines]);
                if (sales != inTables)
                {
                    sales.Seal();
                }
            }
        }

        Assert.True(inBlocks.Bytes < dayApiece.Bytes - ((dayCount - 16) * itemCount * 4), $"in blocks {inBlocks.Bytes:N0} bytes, a block a day {dayApiece.Bytes:N0}");
        foreach (var sales in new[] { inTables, inBlocks, dayApiece })
        {
            // A late line for a day in a block: packed again, that day leaves its block.
            sales.RecordSales([new SaleLine(3, 5, 40, Day(12))]);
            if (sales != inTables)
            {
                sales.Seal();
            }
        }

        Assert.Equal(inTables.Checksum(), inBlocks.Checksum());

        var expected = Rankings(inTables);
        Assert.Equal(expected, Rankings(inBlocks));
        Assert.Equal(expected, Rankings(dayApiece));

        // Read back from a file, the blocks and days come back as they were held, not packed again: the same memory
        // (the cells of the days fallen out and of the day packed again still kept by their block) and rankings.
        var loaded = SavedAndLoaded(inBlocks);
        Assert.Equal((inBlocks.Checksum(), inBlocks.Bytes), (loaded.Checksum(), loaded.Bytes));
        Assert.Equal(expected, Rankings(loaded));

        // Lines in tables when the file is written (a day of a block, the latest day) come back packed with their day.
        SaleLine[] late = [new(4, 6, 3, Day(13)), new(1, 1, 2, Day(39)), new(16, 2_000, 1, Day(39))];
        inBlocks.RecordSales(late);
        inTables.RecordSales(late);
        loaded = SavedAndLoaded(inBlocks);
        Assert.Equal(inTables.Checksum(), loaded.Checksum());
        Assert.Equal(Rankings(inTables), Rankings(loaded));

        static SalesByDay SavedAndLoaded(SalesByDay sales)
        {
            var file = new MemoryStream();
            sales.Save(file);
            var loaded = new SalesByDay(stores, new ItemRange(1, itemCount), 38, daysPerBlock: 8);
            loaded.Load(new MemoryStream(file.ToArray()));
            return loaded;
        }

        static string Rankings(SalesByDay sales)
        {
            var best = new RankedSales[5];
            var all = new System.Text.StringBuilder();
            foreach (var (from, to) in new[] { (0, dayCount - 1), (2, 9), (5, 7), (10, 23), (12, 12), (9, 30), (30, 39) })
            {
                for (var item = 1; item <= itemCount; item += 37)
                {
                    all.AppendJoin(' ', best[..sales.TopStoresForItem(item, Day(from), Day(to), best)].ToArray()).Append('|');
                }

                all.AppendJoin(' ', best[..sales.TopItemsAtStore(3, Day(from), Day(to), best)].ToArray()).Append('|');
            }

            return all.ToString();
        }
    }

    /// <summary>One thread records while two others rank: a ranking sees at least every line recorded before it
    /// began, never less than a ranking before it of the same range, and the last equals the full sum; also while the
    /// days are packed every few lines. The recording waits for each ranking thread to finish another ranking every
    /// 5,000 lines, so they do overlap. With 40 days, the range's days join blocks of two and leave them as they are
    /// packed again.</summary>
    [Theory]
    [InlineData(SalesByDay.DefaultUnsealedBytesLimit, 8)]
    [InlineData(3_000, 8)]
    [InlineData(3_000, 40)]
    public async Task Rankings_beside_recording_see_every_line_recorded_before_them_and_never_go_down(long unsealedBytesLimit, int dayCount)
    {
        const int stores = 4, itemCount = 60, readers = 2;
        var sales = new SalesByDay(stores, new ItemRange(1, itemCount), dayCount + 2, unsealedBytesLimit, daysPerBlock: 2);
        var random = new Random(11);
        var lines = Enumerable.Range(0, 200_000).Select(_ =>
            new SaleLine(random.Next(1, stores + 1), random.Next(1, itemCount + 1), random.Next(1, 3), Day(random.Next(0, dayCount)))).ToArray();
        var (from, to) = (Day(2), Day(5));
        // The units of store 1 and of item 1 in the range, of the first i lines.
        var (storeOneBefore, itemOneBefore) = (new long[lines.Length + 1], new long[lines.Length + 1]);
        for (var i = 0; i < lines.Length; i++)
        {
            var inRange = lines[i].Day >= from && lines[i].Day <= to ? lines[i].Quantity : 0;
            storeOneBefore[i + 1] = storeOneBefore[i] + (lines[i].StoreId == 1 ? inRange : 0);
            itemOneBefore[i + 1] = itemOneBefore[i] + (lines[i].ItemId == 1 ? inRange : 0);
        }

        var recorded = 0;
        var done = false;
        var rounds = new int[readers];
        var recording = Task.Run(() =>
        {
            for (var i = 0; i < lines.Length; i++)
            {
                if (i % 5_000 == 0)
                {
                    var seen = Enumerable.Range(0, readers).Select(r => Volatile.Read(ref rounds[r])).ToArray();
                    SpinWait.SpinUntil(() => Enumerable.Range(0, readers).All(r => Volatile.Read(ref rounds[r]) > seen[r]), TimeSpan.FromSeconds(5));
                }

                sales.RecordSales(lines.AsSpan(i, 1));
                Volatile.Write(ref recorded, i + 1);
            }

            Volatile.Write(ref done, true);
        });
        var rankings = Enumerable.Range(0, readers).Select(reader => Task.Run(() =>
        {
            var (previousItems, previousStores) = (new long[itemCount + 1], new long[stores + 1]);
            var best = new RankedSales[100];
            while (!Volatile.Read(ref done))
            {
                var before = Volatile.Read(ref recorded);
                var items = best[..sales.TopItemsAtStore(1, from, to, best)].ToArray();
                Assert.True(items.Sum(r => r.Units) >= storeOneBefore[before], $"store 1: {items.Sum(r => r.Units)} units of {storeOneBefore[before]} recorded before");
                AssertNeverLower(items, previousItems);

                before = Volatile.Read(ref recorded);
                var itemStores = best[..sales.TopStoresForItem(1, from, to, best)].ToArray();
                Assert.True(itemStores.Sum(r => r.Units) >= itemOneBefore[before], $"item 1: {itemStores.Sum(r => r.Units)} units of {itemOneBefore[before]} recorded before");
                AssertNeverLower(itemStores, previousStores);
                Interlocked.Increment(ref rounds[reader]);
            }
        })).ToArray();

        await Task.WhenAll([recording, .. rankings]).WaitAsync(TimeSpan.FromSeconds(120), TestContext.Current.CancellationToken);
        Assert.All(rounds, r => Assert.True(r >= lines.Length / 5_000, $"{r} rankings"));
        var all = new RankedSales[100];
        Assert.Equal(storeOneBefore[^1], all[..sales.TopItemsAtStore(1, from, to, all)].Sum(r => r.Units));
        Assert.Equal(itemOneBefore[^1], all[..sales.TopStoresForItem(1, from, to, all)].Sum(r => r.Units));

        static void AssertNeverLower(RankedSales[] ranking, long[] previous)
        {
            foreach (var (id, units) in ranking)
            {
                Assert.True(units >= previous[id], $"{id} ranked {units} units after {previous[id]}");
                previous[id] = units;
            }
        }
    }

    /// <summary>The days kept, as the rule reads (days with sales; a new day pushes out the oldest if later, is left
    /// out if older, while the days are full), with every line's units in a plain dictionary.</summary>
    private sealed class KeptDaysModel(int daysKept)
    {
        private readonly Dictionary<(DateOnly Day, int Store, int Item), long> _units = [];
        private DateOnly? _lastDropped;

        public SortedSet<DateOnly> Kept { get; } = [];

        public DateOnly FirstDayAnswerable => _lastDropped?.AddDays(1) ?? DateOnly.MinValue;

        /// <summary>Records a line; returns 1 if it is left out.</summary>
        public Func<SaleLine, int> Record(ItemRange items) => line =>
        {
            if (line.StoreId is < 1 || line.ItemId < 1 || line.Quantity < 0)
            {
                return 1;
            }

            if (!items.Contains(line.ItemId) || line.Quantity == 0)
            {
                return 0;
            }

            if (!Kept.Contains(line.Day))
            {
                if (Kept.Count == daysKept)
                {
                    var oldest = Kept.Min;
                    if (line.Day < oldest)
                    {
                        _lastDropped = _lastDropped > line.Day ? _lastDropped : line.Day;
                        return 1;
                    }

                    Kept.Remove(oldest);
                    _lastDropped = _lastDropped > oldest ? _lastDropped : oldest;
                    foreach (var key in _units.Keys.Where(key => key.Day == oldest).ToList())
                    {
                        _units.Remove(key);
                    }
                }

                Kept.Add(line.Day);
            }

            _units[(line.Day, line.StoreId, line.ItemId)] = _units.GetValueOrDefault((line.Day, line.StoreId, line.ItemId)) + line.Quantity;
            return 0;
        };

        public long Units(int store, int item, DateOnly from, DateOnly to) =>
            Kept.GetViewBetween(from, to).Sum(day => _units.GetValueOrDefault((day, store, item)));

        public RankedSales[] Rank(IEnumerable<int> ids, Func<int, long> units, int k) =>
            [.. ids.Select(id => new RankedSales(id, units(id))).Where(r => r.Units > 0).OrderByDescending(r => r.Units).ThenBy(r => r.Id).Take(k)];
    }
}
