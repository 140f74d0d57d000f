using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.History;

/// <summary>A queue of its own (<see cref="Topology.PurchaseHistoryQueue"/>), so a question never waits behind a
/// backlog of purchases; HistoryQueries:ConcurrentQueries at once, each holding a connection. A question left there while
/// the writer is down expires with its request's time-to-live instead of being answered to nobody.</summary>
public sealed class PurchaseHistoryQuestionsConsumerDefinition : ConsumerDefinition<PurchaseHistoryQuestionsConsumer>
{
    public PurchaseHistoryQuestionsConsumerDefinition(IOptions<HistoryQueryOptions> options)
    {
        EndpointName = Topology.PurchaseHistoryQueue;
        ConcurrentMessageLimit = options.Value.ConcurrentQueries;
    }
}
