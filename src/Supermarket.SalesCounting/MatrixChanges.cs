using Supermarket.Contracts.Sales;

namespace Supermarket.SalesCounting;

/// <summary>Which chunks of a <see cref="SalesMatrix"/> changed since its base copy, so a checkpoint saves those alone.
/// Marked from the thread that records into the matrix.</summary>
public sealed class MatrixChanges
{
    private readonly SalesMatrix _matrix;
    private readonly ulong[] _marked;

    public MatrixChanges(SalesMatrix matrix)
    {
        _matrix = matrix;
        Chunks = MatrixDelta.ChunksOf(matrix);
        _marked = new ulong[(Chunks + 63) / 64];
    }

    public int Chunks { get; }

    public int Count { get; private set; }

    /// <summary>Call it with the lines each <see cref="SalesMatrix.RecordSales"/> is given.</summary>
    public void Mark(ReadOnlySpan<SaleLine> lines)
    {
        foreach (var line in lines)
        {
            if (line.Quantity > 0 && _matrix.Holds(line))
            {
                Mark(_matrix.CellOf(line.StoreId, line.ItemId) / MatrixDelta.ChunkCounters);
            }
        }
    }

    /// <summary>When a new base is taken.</summary>
    public void Clear()
    {
        Array.Clear(_marked);
        Count = 0;
    }

    /// <summary>From the thread that records, so no chunk is torn.</summary>
    public MatrixDelta Take()
    {
        var chunks = new int[Count];
        var units = new long[(long)Count * MatrixDelta.ChunkCounters];
        var taken = 0;
        for (var word = 0; word < _marked.Length; word++)
        {
            for (var bits = _marked[word]; bits != 0; bits &= bits - 1)
            {
                var chunk = (word << 6) + System.Numerics.BitOperations.TrailingZeroCount(bits);
                _matrix.CopyChunk(chunk, units.AsSpan(taken * MatrixDelta.ChunkCounters, MatrixDelta.ChunkCounters));
                chunks[taken++] = chunk;
            }
        }

        return new MatrixDelta(chunks, units);
    }

    private void Mark(int chunk)
    {
        ref var word = ref _marked[chunk >> 6];
        var bit = 1UL << chunk;
        if ((word & bit) == 0)
        {
            word |= bit;
            Count++;
        }
    }
}
