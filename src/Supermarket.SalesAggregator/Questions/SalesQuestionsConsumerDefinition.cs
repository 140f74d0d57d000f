using MassTransit;
using Supermarket.Messaging;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>A queue of its own (<see cref="Topology.SalesQuestionsQueue"/>), so a question never waits behind
/// anything else. MassTransit gives each request a time-to-live equal to its timeout, so questions left there while
/// the aggregator is down expire instead of being answered to nobody.</summary>
public sealed class SalesQuestionsConsumerDefinition : ConsumerDefinition<SalesQuestionsConsumer>
{
    public SalesQuestionsConsumerDefinition() => EndpointName = Topology.SalesQuestionsQueue;
}
