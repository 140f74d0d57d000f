using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Supermarket.SalesCounting;

/// <summary>Arrays written as held in memory, so packed days and blocks are read back without packing them again;
/// read under a budget of the bytes left, so a damaged length fails as damage, not as an allocation of gigabytes.</summary>
internal sealed class HeldArrays(BinaryReader reader, long bytesLeft)
{
    public BinaryReader Reader => reader;

    public bool Fits(long count, int size) => count >= 0 && count <= bytesLeft / size;

    public static void Write<T>(BinaryWriter writer, T[] array)
        where T : unmanaged
    {
        RequireLittleEndian();
        writer.Write(array.Length);
        writer.Write(MemoryMarshal.AsBytes(array.AsSpan()));
    }

    public T[] Read<T>()
        where T : unmanaged
    {
        RequireLittleEndian();
        var count = reader.ReadInt32();
        var bytes = (long)count * Unsafe.SizeOf<T>();
        if (count < 0 || bytes > bytesLeft)
        {
            throw new InvalidDataException($"Sales by day cannot be loaded: an array of {count} longer than the file.");
        }

        var array = GC.AllocateUninitializedArray<T>(count);
        reader.BaseStream.ReadExactly(MemoryMarshal.AsBytes(array.AsSpan()));
        bytesLeft -= bytes;
        return array;
    }

    // Written as they are in memory: a big-endian machine would read other numbers.
    public static void RequireLittleEndian()
    {
        if (!BitConverter.IsLittleEndian)
        {
            throw new PlatformNotSupportedException("Sales by day are saved on little-endian machines only.");
        }
    }
}
