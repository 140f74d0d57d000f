using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Messaging;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesAggregator.Sharding;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>The endpoint runs only while the matrix is whole, so a starting or rebuilding replica leaves its shard's
/// questions to a ready one rather than hold them until they expire.</summary>
public sealed class QuestionsWhileReady(
    IReceiveEndpointConnector connector, MatrixReadiness readiness, SalesShard shard, IOptions<BrokerOptions> broker,
    ILogger<QuestionsWhileReady> logger) : BackgroundService
{
    private static readonly TimeSpan EndpointStopWait = TimeSpan.FromSeconds(5);

    private HostReceiveEndpointHandle? _endpoint;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var queue = Topology.SalesQuestionsQueue(shard.Number, shard.Count);
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                // Before the wait for Ready: a rebuild that begins meanwhile completes this one.
                var rebuilding = readiness.RebuildBegun;
                await readiness.Ready.WaitAsync(stoppingToken);
                // Ready may have been whole before the stop began: no endpoint is connected once it has.
                stoppingToken.ThrowIfCancellationRequested();
                _endpoint = connector.ConnectReceiveEndpoint(queue, (context, questions) =>
                {
                    // What ConfigureEndpoints does for every other endpoint, which this one is left out of.
                    if (questions is IRabbitMqReceiveEndpointConfigurator rabbit)
                    {
                        Topology.ShapeWorkerQueue(rabbit, broker.Value);
                    }

                    questions.ConfigureConsumer<SalesQuestionsConsumer>(context);
                });
                await _endpoint.Ready.WaitAsync(stoppingToken);
                logger.LogInformation("The sales matrix is whole: taking questions from {Queue}", queue);
                await rebuilding.WaitAsync(stoppingToken);
                await _endpoint.StopAsync(stoppingToken);
                logger.LogInformation("The sales matrix is being rebuilt: no questions taken from {Queue} until it is whole", queue);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Stopping: the bus stops every endpoint, this one too.
        }
    }

    /// <summary>Before the feed stops, so later questions go to another replica; on a bounded time of its own, not the
    /// host's: a bus stopped with no time left abandons its endpoints. One still starting finishes first: MassTransit
    /// loses the stop of a receive transport still opening its channel (SalesReplicaStopTests).</summary>
    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        if (_endpoint is not { } endpoint)
        {
            return;
        }

        using var bound = new CancellationTokenSource(EndpointStopWait);
        try
        {
            await endpoint.Ready.WaitAsync(bound.Token);
            await endpoint.StopAsync(bound.Token);
        }
        catch (OperationCanceledException) when (bound.IsCancellationRequested)
        {
            logger.LogWarning("The sales questions' endpoint did not stop within {Seconds} s; the bus's stop is left to end it", EndpointStopWait.TotalSeconds);
        }
    }
}
