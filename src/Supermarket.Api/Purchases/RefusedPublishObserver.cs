using MassTransit;
using BrokerRefusal = RabbitMQ.Client.Exceptions.PublishException;

namespace Supermarket.Api.Purchases;

/// <summary>
/// Ends a publish at once when RabbitMQ refuses it. From 8.5, MassTransit wraps the broker's nack in a connection
/// error and retries the publish until it is cancelled, so a purchase refused because the writer's backlog is full
/// would wait out its whole deadline before its 503, and keep the broker busy refusing it meanwhile. Each
/// failed try reaches the publish observers with the broker's own exception, a RabbitMQ.Client <c>PublishException</c>:
/// a nack, or a return (no queue took the message, which <c>Mandatory</c> asks for). Either way nothing was stored.
/// </summary>
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
