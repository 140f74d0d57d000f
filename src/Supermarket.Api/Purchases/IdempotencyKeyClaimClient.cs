using System.Buffers.Binary;
using System.Security.Cryptography;
using MassTransit;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Purchases;

/// <summary>Asks the Purchases writer whether an Idempotency-Key may stand for this purchase: the same key with the
/// same request is a retry (same id); with another request it is refused, so two purchases never merge.</summary>
public sealed class IdempotencyKeyClaimClient(IClientFactory clients)
{
    // One for the process, not a scoped one built per request: MassTransit's request clients are safe to share.
    private readonly IRequestClient<ClaimIdempotencyKey> _client = clients.CreateRequestClient<ClaimIdempotencyKey>();

    public async Task<KeyClaim> ClaimAsync(PurchaseRecorded purchase, string key, RequestDeadline deadline)
    {
        var timeout = RequestTimeout.After(ms: Math.Max(1, (int)deadline.Remaining.TotalMilliseconds));
        try
        {
            var answer = await _client.GetResponse<IdempotencyKeyClaimed>(
                new ClaimIdempotencyKey(purchase.StoreId, key, RequestHash(purchase)), deadline.Ended, timeout).WaitAsync(deadline.Ended);
            return answer.Message.SameRequest ? KeyClaim.SameRequest : KeyClaim.OtherRequest;
        }
        catch (Exception exception) when (exception is RequestTimeoutException or OperationCanceledException or RequestException
            && !deadline.RequestAborted.IsCancellationRequested)
        {
            return KeyClaim.Unanswered;
        }
    }

    /// <summary>Of what the request asks for, not its bytes: whitespace or key order makes no new request.</summary>
    public static byte[] RequestHash(PurchaseRecorded purchase)
    {
        var fields = new byte[4 * (3 + (2 * purchase.Items.Length))];
        var span = fields.AsSpan();
        BinaryPrimitives.WriteInt32BigEndian(span, purchase.StoreId);
        BinaryPrimitives.WriteInt32BigEndian(span[4..], purchase.CustomerId);
        BinaryPrimitives.WriteInt32BigEndian(span[8..], purchase.Date.DayNumber);
        for (var i = 0; i < purchase.Items.Length; i++)
        {
            BinaryPrimitives.WriteInt32BigEndian(span[(12 + (8 * i))..], purchase.Items[i].ItemId);
            BinaryPrimitives.WriteInt32BigEndian(span[(16 + (8 * i))..], purchase.Items[i].Quantity);
        }

        return SHA256.HashData(fields);
    }
}

public enum KeyClaim
{
    SameRequest,
    OtherRequest,
    /// <summary>The writer did not answer in time (down, or the broker is).</summary>
    Unanswered,
}
