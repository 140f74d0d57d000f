using MassTransit;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Purchases;
using BrokerRefusal = RabbitMQ.Client.Exceptions.PublishException;

namespace Supermarket.Api.Tests.Purchases;

/// <summary>A nack or a return ends the publish it belongs to at once (nothing was stored); anything else is left to the
/// publish's own deadline.</summary>
public sealed class RefusedPublishObserverTests
{
    public static TheoryData<string, Exception, bool> Failures() => new()
    {
        { "the broker's nack", new BrokerRefusal(1, isReturn: false), true },
        { "a nack inside MassTransit's connection error (8.5)", new InvalidOperationException("Publish failed", new BrokerRefusal(1, isReturn: false)), true },
        { "a message no queue took (returned)", new BrokerRefusal(1, isReturn: true), true },
        { "a lost connection", new InvalidOperationException("The connection is gone"), false },
    };

    [Theory]
    [MemberData(nameof(Failures))]
    public async Task A_nack_or_a_return_refuses_the_attempt_and_nothing_else_does(string what, Exception failure, bool refused)
    {
        _ = what;
        var context = await PublishContextAsync();
        using var attempt = new PublishAttempt(TimeSpan.FromMinutes(1));
        context.GetOrAddPayload(() => attempt);

        await new RefusedPublishObserver().PublishFault(context, failure);

        Assert.Equal(refused, attempt.Refused);
        Assert.Equal(refused, attempt.Token.IsCancellationRequested);
    }

    /// <summary>A real publish's context, as MassTransit hands it to publish observers.</summary>
    private static async Task<PublishContext<PurchaseBatchRecorded>> PublishContextAsync()
    {
        await using var harness = IngestHarness.Create();
        await harness.StartAsync();
        var observer = new Capture();
        using var connected = harness.Bus.Bus.ConnectPublishObserver(observer);
        await harness.Bus.Bus.Publish(new PurchaseBatchRecorded([IngestHarness.Purchase()]));
        return observer.Context ?? throw new InvalidOperationException("No publish was observed.");
    }

    private sealed class Capture : IPublishObserver
    {
        public PublishContext<PurchaseBatchRecorded>? Context { get; private set; }

        public Task PrePublish<T>(PublishContext<T> context)
            where T : class
        {
            Context ??= context as PublishContext<PurchaseBatchRecorded>;
            return Task.CompletedTask;
        }

        public Task PostPublish<T>(PublishContext<T> context)
            where T : class => Task.CompletedTask;

        public Task PublishFault<T>(PublishContext<T> context, Exception exception)
            where T : class => Task.CompletedTask;
    }
}
