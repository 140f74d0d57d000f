using MassTransit;

namespace Supermarket.Messaging;

/// <summary>
/// How a question to a worker and its answer travel: transient, not written to the broker's disk on a single node (a
/// cluster's quorum queues keep every message they hold, whatever its delivery mode; the answers, to the asker's own
/// temporary queue, still gain there). A question is worth nothing after its asker's deadline, and one lost in a broker
/// restart costs its asker a 504 and a second try, as one unanswered would; persisting it would cost a durable write for
/// each question and each answer (#55). Purchases are the only messages the system promises to keep.
/// </summary>
public static class QuestionDelivery
{
    /// <summary>For <see cref="IRequestClient{TRequest}.GetResponse{T}(TRequest, RequestPipeConfiguratorCallback{TRequest}, CancellationToken, RequestTimeout)"/>.</summary>
    public static void Transient<TQuestion>(IRequestPipeConfigurator<TQuestion> question)
        where TQuestion : class =>
        question.UseExecute(context => context.Durable = false);

    /// <summary>For <c>ConsumeContext.RespondAsync</c>.</summary>
    public static void Transient<TAnswer>(SendContext<TAnswer> answer)
        where TAnswer : class =>
        answer.Durable = false;
}
