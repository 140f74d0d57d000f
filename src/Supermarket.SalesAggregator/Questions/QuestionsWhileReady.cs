using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Messaging;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesAggregator.Sharding;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>
/// Takes the shard's questions only while the matrix can answer them: the questions' endpoint starts once the matrix is
/// whole and stops when a rebuild begins. A replica that is starting (loading a checkpoint, reading the ledger) or
/// rebuilding therefore leaves its shard's questions to a ready replica beside it, where it would otherwise take about
/// half of them and hold each until it expired (#57). With no replica ready, questions wait in the shard's queue for
/// their time to live, and their askers answer 504 (503 with shards), as before.
/// </summary>
public sealed class QuestionsWhileReady(
    IReceiveEndpointConnector connector, MatrixReadiness readiness, SalesShard shard, IOptions<BrokerOptions> broker,
    ILogger<QuestionsWhileReady> logger) : BackgroundService
{
    private static readonly TimeSpan EndpointStopWait = TimeSpan.FromSeconds(5);

    /// <summary>The endpoint connected last; null before the matrix is first whole.</summary>
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
                // The questions it holds are handed back to the queue (SalesQuestionsConsumer); the rest go to other replicas.
                await _endpoint.StopAsync(stoppingToken);
                logger.LogInformation("The sales matrix is being rebuilt: no questions taken from {Queue} until it is whole", queue);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Stopping: the bus stops every endpoint, this one too.
        }
    }

    /// <summary>Stops taking questions before the sales ledger feed stops (it is stopped after this service): the
    /// questions held now are answered from the feed's next reads, and those that come later go to another replica, where
    /// taken during the feed's last checkpoint they would wait for a read that never comes. Stopped on a time of its own,
    /// not the host's: a bus stopped with no time left abandons its endpoints (MassTransit 8.5 catches the cancellation
    /// and counts itself stopped), and in a host that lives on (the tests') that endpoint went on taking the shard's
    /// questions and never answered them. An endpoint connected just before the stop is let finish starting first:
    /// MassTransit loses the stop of a receive transport still opening its channel (SalesReplicaStopTests). Each wait
    /// is bounded by <see cref="EndpointStopWait"/> (the broker gone: the bus and the process's exit end it), so the
    /// services stopped after this one keep their share of the shutdown time (#72).</summary>
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
