namespace Supermarket.ServiceDefaults.About;

/// <summary>Something a service says of itself on <c>/about</c> beside its settings, read at each GET (a sales shard's
/// items, memory and position).</summary>
public sealed record AboutFact(string Name, Func<object?> Read);
