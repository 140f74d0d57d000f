namespace Supermarket.Api.Problems;

/// <summary>What was wrong with a request: the field (as the client named it) and why.</summary>
public readonly record struct InputError(string Field, string Reason);
