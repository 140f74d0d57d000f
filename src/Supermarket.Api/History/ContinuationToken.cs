using System.Buffers.Binary;
using System.Buffers.Text;
using Supermarket.Api.Problems;
using Supermarket.Contracts.History;

namespace Supermarket.Api.History;

/// <summary>The opaque <c>continuation</c> a page hands back (keyset paging). It names its question, so a token from
/// another one is refused rather than answered with some other page.</summary>
/// <remarks>base64url: version, kind, subject, a store's day; the position's date, UTC ticks, id; big-endian.</remarks>
public static class ContinuationToken
{
    public const string Field = "continuation";

    private const byte Version = 1;
    private const int Length = 1 + 1 + 4 + 4 + 4 + 8 + 16;

    public enum Kind : byte
    {
        Store = 1,
        Customer = 2,
    }

    public static string Write(Kind kind, int subject, DateOnly day, HistoryPosition position)
    {
        Span<byte> bytes = stackalloc byte[Length];
        bytes[0] = Version;
        bytes[1] = (byte)kind;
        BinaryPrimitives.WriteInt32BigEndian(bytes[2..], subject);
        BinaryPrimitives.WriteInt32BigEndian(bytes[6..], kind == Kind.Store ? day.DayNumber : 0);
        BinaryPrimitives.WriteInt32BigEndian(bytes[10..], position.Date.DayNumber);
        BinaryPrimitives.WriteInt64BigEndian(bytes[14..], position.ReceivedAt.UtcTicks);
        position.PurchaseId.TryWriteBytes(bytes[22..], bigEndian: true, out _);
        return Base64Url.EncodeToString(bytes);
    }

    /// <summary>Null when there is none (the first page), or why it is not one this question handed out.</summary>
    public static InputError? TryRead(string? text, Kind kind, int subject, DateOnly day, out HistoryPosition? position)
    {
        position = null;
        if (string.IsNullOrEmpty(text))
        {
            return null;
        }

        // TryDecodeFromChars throws on a character outside the alphabet: IsValid checks first.
        Span<byte> bytes = stackalloc byte[Length];
        if (text.Length > 2 * Length || !Base64Url.IsValid(text, out var length) || length != Length
            || !Base64Url.TryDecodeFromChars(text, bytes, out _) || bytes[0] != Version || bytes[1] != (byte)kind)
        {
            return new InputError(Field, "is not a continuation this API handed out.");
        }

        if (BinaryPrimitives.ReadInt32BigEndian(bytes[2..]) != subject
            || (kind == Kind.Store && BinaryPrimitives.ReadInt32BigEndian(bytes[6..]) != day.DayNumber))
        {
            return new InputError(Field, "belongs to another question: continue with the same path and date it came from.");
        }

        var date = BinaryPrimitives.ReadInt32BigEndian(bytes[10..]);
        var ticks = BinaryPrimitives.ReadInt64BigEndian(bytes[14..]);
        if (date < DateOnly.MinValue.DayNumber || date > DateOnly.MaxValue.DayNumber || ticks < 0 || ticks > DateTime.MaxValue.Ticks)
        {
            return new InputError(Field, "is not a continuation this API handed out.");
        }

        position = new HistoryPosition(DateOnly.FromDayNumber(date), new DateTimeOffset(ticks, TimeSpan.Zero),
            new Guid(bytes[22..Length], bigEndian: true));
        return null;
    }
}
