using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.History;

/// <summary>A queue of its own, so a question never waits behind a backlog of purchases.</summary>
public sealed class PurchaseHistoryQuestionsConsumerDefinition : ConsumerDefinition<PurchaseHistoryQuestionsConsumer>
{
    public PurchaseHistoryQuestionsConsumerDefinition(IOptions<HistoryQueryOptions> options)
    {
        EndpointName = Topology.PurchaseHistoryQueue;
        ConcurrentMessageLimit = options.Value.ConcurrentQueries;
    }
}
