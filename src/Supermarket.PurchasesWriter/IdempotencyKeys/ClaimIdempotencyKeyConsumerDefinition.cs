using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Messaging;
using Supermarket.PurchasesWriter.Recording;

namespace Supermarket.PurchasesWriter.IdempotencyKeys;

/// <summary>A queue of its own, so a till's claim never waits behind a backlog of purchases.</summary>
public sealed class ClaimIdempotencyKeyConsumerDefinition : ConsumerDefinition<ClaimIdempotencyKeyConsumer>
{
    public ClaimIdempotencyKeyConsumerDefinition(IOptions<WriterOptions> options)
    {
        EndpointName = Topology.IdempotencyKeysQueue;
        ConcurrentMessageLimit = options.Value.BatchConcurrency;
    }
}
