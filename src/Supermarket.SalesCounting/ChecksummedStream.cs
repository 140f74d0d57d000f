using System.IO.Hashing;

namespace Supermarket.SalesCounting;

/// <summary>Hashes (XXH3) what is written through it, or read through it up to a length, so a file section is checked
/// as it streams rather than held whole in memory.</summary>
public sealed class ChecksummedStream : Stream
{
    private readonly Stream _inner;
    private readonly XxHash3 _hash = new();
    private readonly long _readLimit;

    private ChecksummedStream(Stream inner, long readLimit) => (_inner, _readLimit) = (inner, readLimit);

    public static ChecksummedStream Writing(Stream destination) => new(destination, readLimit: -1);

    /// <summary>Reads at most <paramref name="length"/> bytes.</summary>
    public static ChecksummedStream Reading(Stream source, long length)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        return new(source, length);
    }

    public long Through { get; private set; }

    public long Remaining => _readLimit < 0 ? 0 : _readLimit - Through;

    /// <summary>Equals <see cref="XxHash3.HashToUInt64(ReadOnlySpan{byte}, long)"/> of every byte through so far.</summary>
    public ulong Checksum => _hash.GetCurrentHashAsUInt64();

    public override bool CanRead => _readLimit >= 0;

    public override bool CanWrite => _readLimit < 0;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => Through;
        set => throw new NotSupportedException();
    }

    /// <summary>So <see cref="Checksum"/> covers all of the length given.</summary>
    public void ReadToLimit()
    {
        Span<byte> buffer = stackalloc byte[4096];
        while (Read(buffer) > 0)
        {
        }
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        if (!CanRead)
        {
            throw new NotSupportedException();
        }

        var read = _inner.Read(buffer[..(int)Math.Min(buffer.Length, _readLimit - Through)]);
        _hash.Append(buffer[..read]);
        Through += read;
        return read;
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        if (!CanWrite)
        {
            throw new NotSupportedException();
        }

        _inner.Write(buffer);
        _hash.Append(buffer);
        Through += buffer.Length;
    }

    public override void Flush() => _inner.Flush();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
