using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;
using Supermarket.Tests.Shared;

namespace Supermarket.SalesCounting.Tests;

public sealed class SalesMatrixTests
{
    /// <summary>The ledger feed records from one thread, but the matrix is built for any number (each add is an
    /// Interlocked one): several threads recording at once lose no unit.</summary>
    [Fact]
    public void Concurrent_updates_from_many_threads_sum_exactly()
    {
        var matrix = new SalesMatrix(1000, 8, new ItemRange(1, 1000));
        const int threads = 8, updatesPerThread = 200_000;

        Parallel.For(0, threads, new ParallelOptions { MaxDegreeOfParallelism = threads }, t =>
        {
            var random = new Random(t);
            var lines = new SaleLine[2];
            for (var i = 0; i < updatesPerThread; i += 2)
            {
                // Half the updates hit one hot cell, so threads really do collide.
                lines[0] = new SaleLine(1, 1, 1);
                lines[1] = new SaleLine(random.Next(1, 9), random.Next(1, 1001), 2);
                Assert.Equal(0, matrix.RecordSales(lines));
            }
        });

        long total = 0;
        Span<RankedSales> best = stackalloc RankedSales[matrix.MaxStores];
        for (var item = 1; item <= 1000; item++)
        {
            foreach (var store in best[..matrix.TopStoresForItem(item, best)])
            {
                total += store.Units;
            }
        }

        Assert.Equal((threads * updatesPerThread / 2) + CountOddUpdatesAt(1, 1, threads, updatesPerThread), matrix.UnitsSold(1, 1));
        Assert.Equal((long)threads * updatesPerThread / 2 * 3, total);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Top_K_matches_a_brute_force_ranking_on_random_data_with_ties(int seed)
    {
        const int items = 2003, stores = 37; // not multiples of the SIMD width
        var matrix = new SalesMatrix(items, stores, new ItemRange(1, items));
        var random = new Random(seed);
        var truth = new int[stores + 1, items + 1];
        for (var i = 0; i < 20_000; i++)
        {
            // Small quantities over few distinct values: many ties, many zeros.
            var (store, item, quantity) = (random.Next(1, stores + 1), random.Next(1, items + 1), random.Next(1, 3));
            matrix.RecordSales([new SaleLine(store, item, quantity)]);
            truth[store, item] += quantity;
        }

        foreach (var k in new[] { 1, 5, 10, 100 })
        {
            var best = new RankedSales[k];
            for (var store = 1; store <= stores; store++)
            {
                var expected = Enumerable.Range(1, items).Select(item => new RankedSales(item, truth[store, item]));
                Assert.Equal(BruteForce(expected, k), best[..matrix.TopItemsAtStore(store, best)]);
            }

            for (var item = 1; item <= items; item += 7)
            {
                var expected = Enumerable.Range(1, stores).Select(store => new RankedSales(store, truth[store, item]));
                Assert.Equal(BruteForce(expected, k), best[..matrix.TopStoresForItem(item, best)]);
            }
        }
    }

    /// <summary>A checkpoint's copy taken a part at a time while sales go on being recorded (#55): the sales recorded
    /// after their part was copied reach the copy too, those before it come with the part, and once every part is
    /// copied the copy holds exactly the matrix's counters, of a shard's range as of the whole catalog's.</summary>
    [Theory]
    [InlineData(1, 1)]
    [InlineData(2, 2)]
    public void A_copy_taken_a_part_at_a_time_between_recordings_equals_the_matrix_at_its_end(int shard, int shards)
    {
        var items = new SalesShardOptions { Count = shards }.ItemsOf(shard, 2_000);
        var (matrix, copy) = (new SalesMatrix(2_000, 64, items), new SalesMatrix(2_000, 64, items));
        var random = new Random(5);
        SaleLine[] Sales() => [.. Enumerable.Range(0, 500).Select(_ =>
            new SaleLine(random.Next(1, 65), random.Next(1, 2_001), random.Next(0, 50)))];
        matrix.RecordSales(Sales());

        var part = (int)(matrix.Counters / 7) + 1;
        for (long copied = 0; copied < matrix.Counters;)
        {
            var count = (int)Math.Min(part, matrix.Counters - copied);
            matrix.CopyCountersTo(copy, copied, count);
            copied += count;
            var sales = Sales();
            matrix.RecordSales(sales);
            matrix.RecordSalesCopied(copy, sales, copied);
        }

        Assert.Equal(matrix.Checksum(), copy.Checksum());
        var (fromMatrix, fromCopy) = (new MemoryStream(), new MemoryStream());
        matrix.Save(fromMatrix);
        copy.Save(fromCopy);
        Assert.Equal(fromMatrix.ToArray(), fromCopy.ToArray());
    }

    [Fact]
    public void Zero_counts_are_left_out()
    {
        var matrix = new SalesMatrix(100, 4, new ItemRange(1, 100));
        matrix.RecordSales([new SaleLine(2, 50, 3)]);
        var best = new RankedSales[10];

        Assert.Equal([new RankedSales(50, 3)], best[..matrix.TopItemsAtStore(2, best)]);
        Assert.Equal(0, matrix.TopItemsAtStore(1, best));
        Assert.Equal([new RankedSales(2, 3)], best[..matrix.TopStoresForItem(50, best)]);
    }

    [Fact]
    public void Questions_of_ids_and_counts_out_of_range_are_refused()
    {
        var matrix = new SalesMatrix(100, 4, new ItemRange(1, 100));
        var best = new RankedSales[10];

        Assert.Throws<ArgumentOutOfRangeException>(() => matrix.TopItemsAtStore(0, best));
        Assert.Throws<ArgumentOutOfRangeException>(() => matrix.TopStoresForItem(0, best));
        Assert.Throws<ArgumentOutOfRangeException>(() => matrix.TopItemsAtStore(5, best));
        Assert.Throws<ArgumentOutOfRangeException>(() => matrix.TopStoresForItem(101, best));
        Assert.Throws<ArgumentOutOfRangeException>(() => matrix.TopItemsAtStore(1, new RankedSales[101]));
        Assert.Throws<ArgumentOutOfRangeException>(() => matrix.TopItemsAtStore(1, []));
    }

    [Fact]
    public void The_full_chain_fits_one_matrix()
    {
        var matrix = new SalesMatrix(100_000, 512, new ItemRange(1, 100_000));
        matrix.RecordSales([new SaleLine(512, 100_000, 7)]);
        var best = new RankedSales[10];

        Assert.Equal([new RankedSales(100_000, 7)], best[..matrix.TopItemsAtStore(512, best)]);
        Assert.Equal([new RankedSales(512, 7)], best[..matrix.TopStoresForItem(100_000, best)]);
    }

    private static RankedSales[] BruteForce(IEnumerable<RankedSales> candidates, int k) =>
        [.. candidates.Where(c => c.Units > 0).OrderByDescending(c => c.Units).ThenBy(c => c.Id).Take(k)];

    /// <summary>The odd-numbered updates are random; replay them to know how many of them also hit (store, item).</summary>
    private static int CountOddUpdatesAt(int store, int item, int threads, int updatesPerThread)
    {
        var units = 0;
        for (var t = 0; t < threads; t++)
        {
            var random = new Random(t);
            for (var i = 1; i < updatesPerThread; i += 2)
            {
                if (random.Next(1, 9) == store & random.Next(1, 1001) == item)
                {
                    units += 2;
                }
            }
        }

        return units;
    }

    [Fact]
    public void Counters_go_past_the_32_bit_range_and_rank_by_the_true_total()
    {
        var matrix = new SalesMatrix(20, 3, new ItemRange(1, 20));
        for (var i = 0; i < 2_200; i++)
        {
            matrix.RecordSales([new SaleLine(2, 7, 1_000_000)]);
        }

        matrix.RecordSales([new SaleLine(2, 8, 5)]);
        Span<RankedSales> best = stackalloc RankedSales[2];
        Assert.Equal(2, matrix.TopItemsAtStore(2, best));
        Assert.Equal(new RankedSales(7, 2_200_000_000), best[0]);
        Assert.Equal(1, matrix.TopStoresForItem(7, best));
        Assert.Equal(2_200_000_000, best[0].Units);
    }

    /// <summary>Each line is added, those of one cell too; a line outside the matrix (either id beyond either bound, a
    /// negative quantity) is left out alone, and counted, while the lines beside it are added.</summary>
    [Fact]
    public void Lines_outside_the_matrix_are_left_out_and_counted_not_thrown()
    {
        var matrix = new SalesMatrix(20, 3, new ItemRange(1, 20));
        var outside = matrix.RecordSales(
            [new(1, 5, 2), new(4, 5, 1), new(0, 5, 1), new(1, 21, 1), new(1, 0, 1), new(1, 5, -1), new(3, 20, 9), new(1, 5, 3)]);
        Assert.Equal(5, outside);
        Assert.Equal(5, matrix.UnitsSold(1, 5));
        Assert.Equal(9, matrix.UnitsSold(3, 20));
    }

    [Fact]
    public void A_shards_matrix_counts_its_items_and_passes_over_the_rest_without_calling_them_outside()
    {
        var matrix = new SalesMatrix(maxItemId: 20, maxStores: 3, new ItemRange(11, 20));
        var outside = matrix.RecordSales([new(1, 5, 2), new(1, 15, 4), new(4, 15, 1), new(1, 21, 1), new(2, 3, -1), new(3, 20, 9)]);

        Assert.Equal(3, outside); // store 4, item 21, the negative quantity: beyond the catalog, whichever shard
        Assert.Equal(4, matrix.UnitsSold(1, 15));
        Assert.Equal(9, matrix.UnitsSold(3, 20));
        Assert.Throws<ArgumentOutOfRangeException>(() => matrix.TopStoresForItem(5, new RankedSales[3]));
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void Shards_ranked_apart_and_merged_give_the_whole_matrixs_answers(int shardCount)
    {
        const int items = 2003, stores = 37;
        var whole = new SalesMatrix(items, stores, new ItemRange(1, items));
        var shards = new SalesShardOptions { Count = shardCount };
        var parts = Enumerable.Range(1, shardCount).Select(shard => new SalesMatrix(items, stores, shards.ItemsOf(shard, items))).ToArray();
        var random = new Random(shardCount);
        var lines = Enumerable.Range(0, 20_000).Select(_ => new SaleLine(random.Next(1, stores + 1), random.Next(1, items + 1), random.Next(1, 3))).ToArray();
        whole.RecordSales(lines);
        Assert.All(parts, part => Assert.Equal(0, part.RecordSales(lines)));

        var best = new RankedSales[10];
        for (var store = 1; store <= stores; store++)
        {
            var expected = best[..whole.TopItemsAtStore(store, best)];
            // As the API merges the shards' answers: most units first, ties to the lower item id.
            var merged = parts.SelectMany(part => best[..part.TopItemsAtStore(store, best)])
                .OrderByDescending(sales => sales.Units).ThenBy(sales => sales.Id).Take(best.Length);
            Assert.Equal(expected, merged);
        }

        for (var item = 1; item <= items; item += 7)
        {
            var owner = parts[shards.ShardOf(item, items) - 1];
            Assert.Equal(best[..whole.TopStoresForItem(item, best)], best[..owner.TopStoresForItem(item, best)]);
        }
    }

    /// <summary>A checkpoint's base and the chunks changed since, saved and read back, make the matrix as it is: its
    /// counters and its rankings (the tiles' maxima raised by the changed counters), of a shard's range whose last
    /// chunk is cut short (23 stores × 30 items).</summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void A_base_with_the_chunks_changed_since_read_back_equals_the_matrix(int seed)
    {
        var (items, stores) = (new ItemRange(11, 40), 23);
        var matrix = new SalesMatrix(40, stores, items);
        var random = new Random(seed);
        SaleLine[] Sales(int count) => [.. Enumerable.Range(0, count).Select(_ =>
            new SaleLine(random.Next(1, stores + 1), random.Next(1, 46), random.Next(0, 20)))];
        matrix.RecordSales(Sales(200));
        var (base1, changes) = (new MemoryStream(), new MatrixChanges(matrix));
        matrix.Save(base1);
        foreach (var count in new[] { 1, 5, 40 })
        {
            var sales = Sales(count);
            matrix.RecordSales(sales);
            changes.Mark(sales);
        }

        var delta = new MemoryStream();
        changes.Take().WriteTo(delta);
        var loaded = new SalesMatrix(40, stores, items);
        loaded.Load(new MemoryStream(base1.ToArray()));
        delta.Position = 0;
        var changed = MatrixDelta.ReadFrom(delta, loaded);
        changed.ApplyTo(loaded);

        Assert.InRange(changed.Count, 1, 46);
        Assert.Equal(matrix.Checksum(), loaded.Checksum());
        var (best, expected) = (new RankedSales[5], new RankedSales[5]);
        for (var store = 1; store <= stores; store++)
        {
            Assert.Equal(expected[..matrix.TopItemsAtStore(store, expected)], best[..loaded.TopItemsAtStore(store, best)]);
        }

        for (var item = items.First; item <= items.Last; item++)
        {
            Assert.Equal(expected[..matrix.TopStoresForItem(item, expected)], best[..loaded.TopStoresForItem(item, best)]);
        }

        Assert.Equal(changes.Count, changed.Count);
    }

    [Fact]
    public void Changed_chunks_of_another_matrix_size_or_out_of_order_are_refused()
    {
        var matrix = new SalesMatrix(40, 23, new ItemRange(11, 40));
        var written = new MemoryStream();
        new MatrixDelta([3, 87], new long[2 * MatrixDelta.ChunkCounters]).WriteTo(written);
        Assert.Throws<InvalidDataException>(() => MatrixDelta.ReadFrom(new MemoryStream(written.ToArray()), matrix));

        written.SetLength(0);
        new MatrixDelta([5, 5], new long[2 * MatrixDelta.ChunkCounters]).WriteTo(written);
        Assert.Throws<InvalidDataException>(() => MatrixDelta.ReadFrom(new MemoryStream(written.ToArray()), matrix));

        written.SetLength(0);
        new MatrixDelta([5, 86], new long[2 * MatrixDelta.ChunkCounters]).WriteTo(written);
        Assert.Equal([5, 86], MatrixDelta.ReadFrom(new MemoryStream(written.ToArray()), matrix).ChunkIndexes.ToArray());
    }

    [Fact]
    public void A_saved_matrix_loads_back_with_its_rankings()
    {
        var matrix = new SalesMatrix(50, 4, new ItemRange(1, 50));
        matrix.RecordSales([new(1, 5, 2), new(1, 49, 30), new(4, 50, 3_000_000_000)]);
        using var file = new MemoryStream();
        matrix.Save(file);
        file.Position = 0;
        var loaded = new SalesMatrix(50, 4, new ItemRange(1, 50));
        loaded.Load(file);
        Span<RankedSales> best = stackalloc RankedSales[3];
        Assert.Equal(2, loaded.TopItemsAtStore(1, best));
        Assert.Equal([new RankedSales(49, 30), new RankedSales(5, 2)], best[..2].ToArray());
        Assert.Equal(3_000_000_000, loaded.UnitsSold(4, 50));
    }
}
