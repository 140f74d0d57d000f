using MassTransit;
using BrokerRefusal = RabbitMQ.Client.Exceptions.PublishException;

namespace Supermarket.Api.Purchases;

/// <summary>Ends a publish at once when RabbitMQ refuses it (a nack or a return): MassTransit would retry it until its
/// deadline, and its 503 would wait that long. Nothing was stored either way.</summary>
public sealed class RefusedPublishObserver : IPublishObserver
{
    public Task PublishFault<T>(PublishContext<T> context, Exception exception)
        where T : class
    {
        if (IsRefusal(exception) && context.TryGetPayload<PublishAttempt>(out var attempt))
        {
            attempt.Refuse();
        }

        return Task.CompletedTask;
    }

    public Task PrePublish<T>(PublishContext<T> context)
        where T : class => Task.CompletedTask;

    public Task PostPublish<T>(PublishContext<T> context)
        where T : class => Task.CompletedTask;

    private static bool IsRefusal(Exception? exception)
    {
        for (; exception is not null; exception = exception.InnerException)
        {
            if (exception is BrokerRefusal)
            {
                return true;
            }
        }

        return false;
    }
}
