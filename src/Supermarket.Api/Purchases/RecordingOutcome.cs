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

    /// <summary>Not published: withdrawn at the request's deadline before a group took it, refused by the broker, or too
    /// many purchases already waiting; nothing recorded: 503.</summary>
    NotPublished,

    /// <summary>Published, and the broker did not confirm it by the group's deadline: it may or may not be recorded
    /// (504). A retry with the same key records it once either way.</summary>
    OutcomeUnknown,
}

/// <summary>The outcome and, once stamped, the purchase's id.</summary>
public readonly record struct PurchaseRecording(RecordingOutcome Outcome, Guid PurchaseId);
