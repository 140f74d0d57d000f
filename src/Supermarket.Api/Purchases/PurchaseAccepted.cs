using Microsoft.AspNetCore.Http.HttpResults;

namespace Supermarket.Api.Purchases;

/// <summary>The 201 body: the broker has confirmed the purchase.</summary>
public sealed record PurchaseAccepted(string Message, Guid PurchaseId)
{
    /// <summary>The answer to a recorded purchase.</summary>
    public static Created<PurchaseAccepted> Created(Guid purchaseId) => TypedResults.Created((string?)null, new PurchaseAccepted("Purchase recorded.", purchaseId));
}
