namespace Supermarket.Contracts.Purchases;

/// <summary>
/// Asks the Purchases writer, which keeps every store's keys, whether <paramref name="Key"/> may stand for this
/// request: yes the first time, yes again for the same request (a retry), no for a different one.
/// </summary>
/// <param name="RequestHash">SHA-256 of what the request asks for (store, customer, date and lines), so a retry
/// with other whitespace in its body is still the same request.</param>
public sealed record ClaimIdempotencyKey(int StoreId, string Key, byte[] RequestHash);

/// <summary>The answer to <see cref="ClaimIdempotencyKey"/>: false when the key was first used for another request.</summary>
public sealed record IdempotencyKeyClaimed(bool SameRequest);
