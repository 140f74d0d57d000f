namespace Supermarket.Contracts.Sales;

/// <summary>Why a shard ranked nothing for a range of days: the range reaches before the first day it can count
/// exactly or spans more days than it keeps (the API's 400 naming <see cref="Parameter"/>), or its ledger holds sales
/// stored before entries carried their day, which no range can count until they are dated (<see cref="Undated"/>: 503).</summary>
public sealed record RangeRefused(string Parameter, string Reason, bool Undated = false);
