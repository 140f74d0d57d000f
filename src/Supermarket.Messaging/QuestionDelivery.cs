using MassTransit;

namespace Supermarket.Messaging;

/// <summary>Transient: a question is worthless past its asker's deadline; a lost one costs a 504 and a retry.</summary>
public static class QuestionDelivery
{
    public static void Transient<TQuestion>(IRequestPipeConfigurator<TQuestion> question)
        where TQuestion : class =>
        question.UseExecute(context => context.Durable = false);

    public static void Transient<TAnswer>(SendContext<TAnswer> answer)
        where TAnswer : class =>
        answer.Durable = false;
}
