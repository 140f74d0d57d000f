namespace Supermarket.Api.Purchases;

/// <summary>How recording one purchase ended: each outcome is one answer of POST /purchase.</summary>
public enum RecordingOutcome
{
    /// <summary>The broker confirmed the purchase: 201. A retry with a key already claimed by the same request ends
    /// here too, with the first attempt's id (the writer stores it once).</summary>
    Recorded,

    /// <summary>The Idempotency-Key already stands for a different purchase; nothing recorded: 422.</summary>
    KeyUsedForAnotherPurchase,

    /// <summary>The writer could not be asked about the key in time; nothing recorded: 503.</summary>
    KeyUnchecked,

    /// <summary>The broker is known to be gone; answered at once, nothing published: 503.</summary>
    BrokerAway,

    /// <summary>No confirm by the request's deadline, or too many purchases already waiting for one: 503. A retry with
    /// the same key is safe.</summary>
    Unconfirmed,
}

/// <summary>The outcome and, once stamped, the purchase's id.</summary>
public readonly record struct PurchaseRecording(RecordingOutcome Outcome, Guid PurchaseId);
