namespace Supermarket.Contracts.Sales;

/// <summary>The API answers 400 naming <see cref="Parameter"/>, or 503 when <see cref="Undated"/>.</summary>
public sealed record RangeRefused(string Parameter, string Reason, bool Undated = false);
