namespace Supermarket.Api.Purchases;

/// <summary>How recording one purchase ended: each outcome is one answer of POST /purchase.</summary>
public enum RecordingOutcome
{
    /// <summary>201; also a retry whose key the same request claimed, with the first attempt's id.</summary>
    Recorded,

    KeyUsedForAnotherPurchase,

    KeyUnchecked,

    /// <summary>Answered at once, nothing published: 503.</summary>
    BrokerAway,

    /// <summary>Withdrawn at the deadline, refused by the broker, or too many waiting; nothing recorded: 503.</summary>
    NotPublished,

    /// <summary>Not confirmed by the group's deadline: 504; a retry with the same key records it once.</summary>
    OutcomeUnknown,
}

public readonly record struct PurchaseRecording(RecordingOutcome Outcome, Guid PurchaseId);
