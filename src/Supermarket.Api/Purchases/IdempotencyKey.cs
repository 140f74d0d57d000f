using Supermarket.Api.Problems;

namespace Supermarket.Api.Purchases;

/// <summary>The optional Idempotency-Key header (IETF draft): a retry with the same key is the same purchase.</summary>
public static class IdempotencyKey
{
    public const string Header = "Idempotency-Key";
    public const int MaxLength = 128;

    public static InputError? TryRead(HttpRequest request, out string? key)
    {
        key = null;
        if (!request.Headers.TryGetValue(Header, out var values))
        {
            return null;
        }

        if (values.Count != 1 || values[0] is not { Length: > 0 and <= MaxLength } value || !IsVisibleAscii(value))
        {
            return new InputError(Header, $"must be one value of 1 to {MaxLength} visible ASCII characters.");
        }

        key = value;
        return null;
    }

    private static bool IsVisibleAscii(string value)
    {
        foreach (var c in value)
        {
            if (c is < '!' or > '~')
            {
                return false;
            }
        }

        return true;
    }
}
