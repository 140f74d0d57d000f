using System.IO.Compression;
using System.Runtime.InteropServices;

namespace Supermarket.SalesCounting;

/// <summary>Some chunks' counters of a <see cref="SalesMatrix"/>: saved beside a base copy, they make it the matrix as
/// of when they were taken. Counters only grow, so a chunk's counters are never below the base's.</summary>
public sealed class MatrixDelta
{
    /// <summary>A cache line: a cell marks its neighbours too, so the marks take a bit a line of counters.</summary>
    public const int ChunkCounters = 8;

    private readonly int[] _chunks;
    private readonly long[] _units;

    /// <summary>Chunks ascending; counters past the matrix's last are zero.</summary>
    public MatrixDelta(int[] chunks, long[] units)
    {
        ArgumentOutOfRangeException.ThrowIfNotEqual(units.LongLength, (long)chunks.Length * ChunkCounters, nameof(units));
        _chunks = chunks;
        _units = units;
    }

    /// <summary>No chunk: a base as it was taken.</summary>
    public static MatrixDelta None { get; } = new([], []);

    public int Count => _chunks.Length;

    public ReadOnlySpan<int> ChunkIndexes => _chunks;

    public static int ChunksOf(SalesMatrix matrix) => (int)((matrix.Counters + ChunkCounters - 1) / ChunkCounters);

    /// <summary><paramref name="matrix"/>: the base this delta was taken over, loaded.</summary>
    public void ApplyTo(SalesMatrix matrix)
    {
        for (var i = 0; i < _chunks.Length; i++)
        {
            matrix.SetChunk(_chunks[i], _units.AsSpan(i * ChunkCounters, ChunkCounters));
        }
    }

    public void WriteTo(Stream destination)
    {
        using var compressed = new ZLibStream(destination, CompressionLevel.Fastest, leaveOpen: true);
        using var writer = new BinaryWriter(compressed);
        writer.Write(_chunks.Length);
        var previous = -1;
        foreach (var chunk in _chunks)
        {
            writer.Write7BitEncodedInt(chunk - previous);
            previous = chunk;
        }

        writer.Write(MemoryMarshal.AsBytes(_units.AsSpan()));
    }

    /// <summary>Throws <see cref="InvalidDataException"/> unless the chunks are ascending chunks of such a matrix.</summary>
    public static MatrixDelta ReadFrom(Stream source, SalesMatrix shape)
    {
        using var compressed = new ZLibStream(source, CompressionMode.Decompress, leaveOpen: true);
        using var reader = new BinaryReader(compressed);
        var count = reader.ReadInt32();
        var chunksOfShape = ChunksOf(shape);
        Require(count >= 0 && count <= chunksOfShape);
        var chunks = new int[count];
        var previous = -1L;
        for (var i = 0; i < count; i++)
        {
            var chunk = previous + reader.Read7BitEncodedInt();
            Require(chunk > previous && chunk < chunksOfShape);
            chunks[i] = (int)chunk;
            previous = chunk;
        }

        var units = new long[(long)count * ChunkCounters];
        compressed.ReadExactly(MemoryMarshal.AsBytes(units.AsSpan()));
        return new MatrixDelta(chunks, units);

        static void Require(bool holds)
        {
            if (!holds)
            {
                throw new InvalidDataException("The matrix's changed counters are not a matrix of this size's.");
            }
        }
    }
}
