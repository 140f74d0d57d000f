namespace Supermarket.Contracts.Purchases;

/// <param name="RequestHash">Of what the request asks, not its body: a retry with other whitespace is the same.</param>
public sealed record ClaimIdempotencyKey(int StoreId, string Key, byte[] RequestHash);

public sealed record IdempotencyKeyClaimed(bool SameRequest);
