using MassTransit;
using Supermarket.Api.Broker;
using Supermarket.Api.Insights;
using Supermarket.Api.Problems;
using Supermarket.Messaging;

namespace Supermarket.Api.Workers;

/// <summary>How a GET asks a worker over the broker (request/response): bounded by a timeout end to end, sending
/// the request included, so a GET never hangs: 504 when the worker does not answer, 503 when the broker is known to be
/// gone or cannot take the request, or when some of the sales shards a question needs did not answer, 502 when the
/// worker refused the question.</summary>
public static class WorkerQuestions
{
    /// <summary>Documents what a GET that asks a worker answers: the answer, 400 for bad input, 503 and 504.</summary>
    public static RouteHandlerBuilder ProducesWorkerAnswer<TResponse>(this RouteHandlerBuilder endpoint) =>
        endpoint.Produces<TResponse>()
            .ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status401Unauthorized)
            .ProducesProblem(StatusCodes.Status403Forbidden)
            .ProducesProblem(StatusCodes.Status502BadGateway)
            .ProducesProblem(StatusCodes.Status503ServiceUnavailable)
            .ProducesProblem(StatusCodes.Status504GatewayTimeout);

    public static Task<IResult> AskAsync<TRequest, TAnswer>(HttpContext http, IRequestClient<TRequest> client,
        TRequest request, TimeSpan timeout, string worker, Func<TAnswer, IResult> answer)
        where TRequest : class
        where TAnswer : class =>
        AskAsync(http, async (requestTimeout, deadline) => (await client.GetResponse<TAnswer>(request, QuestionDelivery.Transient, deadline, requestTimeout)).Message,
            timeout, worker, answer);

    /// <summary>Asks through <paramref name="ask"/>, which gets the request's timeout and the deadline every part of the
    /// question shares (the sales shards: Insights/SalesShardClients).</summary>
    public static async Task<IResult> AskAsync<TAnswer>(HttpContext http, Func<RequestTimeout, CancellationToken, Task<TAnswer>> ask,
        TimeSpan timeout, string worker, Func<TAnswer, IResult> answer)
        where TAnswer : class
    {
        if (!http.RequestServices.GetRequiredService<BrokerConnection>().CanAsk())
        {
            return ClientErrors.WorkerUnavailable(http, worker);
        }

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(http.RequestAborted);
        deadline.CancelAfter(timeout);
        try
        {
            return answer(await ask(RequestTimeout.After(ms: (int)timeout.TotalMilliseconds), deadline.Token));
        }
        catch (SalesShardsAway away) when (!http.RequestAborted.IsCancellationRequested)
        {
            return ClientErrors.ShardsUnavailable(http, worker, away.Shards);
        }
        catch (Exception exception) when (exception is RequestTimeoutException or OperationCanceledException
            && !http.RequestAborted.IsCancellationRequested)
        {
            return TypedResults.Problem($"The {worker} did not answer in time.",
                statusCode: StatusCodes.Status504GatewayTimeout, title: "Gateway timeout.");
        }
        catch (RequestFaultException fault) when (!http.RequestAborted.IsCancellationRequested)
        {
            // The worker refused the question (a sales shard asked of an item it does not count: this API and the
            // aggregators are configured apart). Asking again gets the same: not a 503.
            http.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(WorkerQuestions))
                .LogError("The {Worker} refused a question: {Reason}", worker, fault.Fault?.Exceptions.FirstOrDefault()?.Message ?? fault.Message);
            return TypedResults.Problem($"The {worker} refused the question; its log and this API's say why.",
                statusCode: StatusCodes.Status502BadGateway, title: "Bad gateway.");
        }
        catch (Exception exception) when (!http.RequestAborted.IsCancellationRequested)
        {
            http.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(WorkerQuestions))
                .LogWarning(exception, "Asking the {Worker} failed", worker);
            return ClientErrors.WorkerUnavailable(http, worker);
        }
    }
}
