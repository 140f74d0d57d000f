using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Messaging;
using Supermarket.PurchasesWriter.Recording;

namespace Supermarket.PurchasesWriter.IdempotencyKeys;

/// <summary>A queue of its own (<see cref="Topology.IdempotencyKeysQueue"/>), so a till's claim
/// never waits behind a backlog of purchases; as many claims at once as batches, each holding a connection.</summary>
public sealed class ClaimIdempotencyKeyConsumerDefinition : ConsumerDefinition<ClaimIdempotencyKeyConsumer>
{
    public ClaimIdempotencyKeyConsumerDefinition(IOptions<WriterOptions> options)
    {
        EndpointName = Topology.IdempotencyKeysQueue;
        ConcurrentMessageLimit = options.Value.BatchConcurrency;
    }
}
