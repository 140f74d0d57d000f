using MassTransit;
using Supermarket.Messaging;
using Supermarket.SalesAggregator.Sharding;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>A queue of its own shard (<see cref="Topology.SalesQuestionsQueue"/>), so a question never waits behind
/// anything else, bound only to the exchange the API sends that shard's questions to
/// (<see cref="Topology.SalesQuestionsExchange"/>) rather than to the message types', which every shard's queue would
/// share. A shard's replicas compete on the queue. MassTransit gives each request a time-to-live equal to its timeout,
/// so questions left there while the shard is down expire instead of being answered to nobody.</summary>
public sealed class SalesQuestionsConsumerDefinition : ConsumerDefinition<SalesQuestionsConsumer>
{
    private readonly string _exchange;

    public SalesQuestionsConsumerDefinition(SalesShard shard)
    {
        _exchange = Topology.SalesQuestionsExchange(shard.Number, shard.Count);
        EndpointName = Topology.SalesQuestionsQueue(shard.Number, shard.Count);
    }

    protected override void ConfigureConsumer(IReceiveEndpointConfigurator endpoint,
        IConsumerConfigurator<SalesQuestionsConsumer> consumer, IRegistrationContext context)
    {
        endpoint.ConfigureConsumeTopology = false;
        // A refused question (QuestionOutsideShard) faults back to its asker; kept in an error queue it would help no one.
        endpoint.DiscardFaultedMessages();
        if (endpoint is IRabbitMqReceiveEndpointConfigurator rabbit)
        {
            rabbit.Bind(_exchange);
        }
    }
}
