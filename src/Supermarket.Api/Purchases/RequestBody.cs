using System.Buffers;

namespace Supermarket.Api.Purchases;

/// <summary>A request body read whole into a pooled buffer, up to a limit. Return it with <see cref="Dispose"/>.</summary>
public sealed class RequestBody : IDisposable
{
    private byte[] _buffer;

    private RequestBody(byte[] buffer, int length)
    {
        _buffer = buffer;
        Length = length;
    }

    public int Length { get; }

    public ReadOnlySpan<byte> Span => _buffer.AsSpan(0, Length);

    public static async Task<RequestBody?> ReadAsync(HttpRequest request, int limit, CancellationToken cancellationToken)
    {
        if (request.ContentLength > limit)
        {
            return null;
        }

        var buffer = ArrayPool<byte>.Shared.Rent((int)Math.Min(request.ContentLength ?? 1024, limit) + 1);
        var length = 0;
        try
        {
            while (true)
            {
                if (length == buffer.Length)
                {
                    if (length > limit)
                    {
                        ArrayPool<byte>.Shared.Return(buffer);
                        return null;
                    }

                    var larger = ArrayPool<byte>.Shared.Rent(Math.Min(buffer.Length * 2, limit + 1));
                    buffer.AsSpan(0, length).CopyTo(larger);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = larger;
                }

                var read = await request.Body.ReadAsync(buffer.AsMemory(length), cancellationToken);
                if (read == 0)
                {
                    break;
                }

                length += read;
            }
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(buffer);
            throw;
        }

        if (length > limit)
        {
            ArrayPool<byte>.Shared.Return(buffer);
            return null;
        }

        return new RequestBody(buffer, length);
    }

    public void Dispose()
    {
        if (_buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = [];
        }
    }
}
