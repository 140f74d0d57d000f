using System.Diagnostics;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.Api.Purchases;

/// <summary>A group's span: its publish runs on the batcher's loop, outside every request's span, so it is a child of
/// the first request's span and links the others.</summary>
internal static class IngestTracing
{
    private static readonly ActivitySource Source = new(TelemetryRegistration.MeterName);

    public static Activity? StartBatch(IEnumerable<ActivityContext> batch)
    {
        // Checked first: the batch's callers are gathered only when something records the span.
        if (!Source.HasListeners() || batch.ToList() is not { Count: > 0 } callers)
        {
            return null;
        }

        var links = callers.Skip(1).Where(caller => caller != default).Select(caller => new ActivityLink(caller));
        var activity = Source.StartActivity("purchases publish", ActivityKind.Internal, callers[0], links: links);
        activity?.SetTag("supermarket.purchases", callers.Count);
        return activity;
    }
}
