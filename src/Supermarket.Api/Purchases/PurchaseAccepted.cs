namespace Supermarket.Api.Purchases;

/// <summary>The 201 body: the broker has confirmed the purchase.</summary>
public sealed record PurchaseAccepted(string Message, Guid PurchaseId);
