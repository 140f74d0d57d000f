using MassTransit;
using Supermarket.Messaging;
using Supermarket.SalesAggregator.Sharding;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>A queue of its shard's own, so a question never waits behind anything else, bound to the shard's exchange
/// rather than the message types', which every shard's queue would share. Its replicas compete on it.</summary>
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
