using MassTransit;
using Microsoft.AspNetCore.Http.HttpResults;
using Supermarket.Api.Broker;
using Supermarket.Api.Insights;
using Supermarket.Api.Problems;
using Supermarket.Messaging;

namespace Supermarket.Api.Workers;

/// <summary>How a GET asks a worker: a timeout bounds it end to end, sending included, so a GET never hangs
/// (504, 503 or 502: <see cref="WorkerAnswerDocumentation"/>).</summary>
public sealed class WorkerQuestions(BrokerConnection broker, ILogger<WorkerQuestions> logger)
{
    public Task<Results<Ok<TResponse>, ProblemHttpResult>> AskAsync<TRequest, TAnswer, TResponse>(HttpContext http,
        IRequestClient<TRequest> client, TRequest request, TimeSpan timeout, string worker, Func<TAnswer, TResponse> shape)
        where TRequest : class
        where TAnswer : class =>
        AskAsync(http, async (requestTimeout, deadline) => (await client.GetResponse<TAnswer>(request, QuestionDelivery.Transient, deadline, requestTimeout)).Message,
            timeout, worker, shape);

    public async Task<Results<Ok<TResponse>, ProblemHttpResult>> AskAsync<TAnswer, TResponse>(HttpContext http,
        Func<RequestTimeout, CancellationToken, Task<TAnswer>> ask, TimeSpan timeout, string worker, Func<TAnswer, TResponse> shape)
        where TAnswer : class
    {
        if (!broker.CanAsk())
        {
            return ClientErrors.WorkerUnavailable(http, worker);
        }

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(http.RequestAborted);
        deadline.CancelAfter(timeout);
        try
        {
            return TypedResults.Ok(shape(await ask(RequestTimeout.After(ms: (int)timeout.TotalMilliseconds), deadline.Token)));
        }
        catch (SalesShardsAway away) when (!http.RequestAborted.IsCancellationRequested)
        {
            return ClientErrors.ShardsUnavailable(http, worker, away.Shards);
        }
        catch (SalesRangeRefused range)
        {
            return range.Refused.Undated
                ? ClientErrors.RangeNotDated(http, range.Refused.Reason)
                : ClientErrors.Invalid(new InputError(range.Refused.Parameter, range.Refused.Reason));
        }
        catch (Exception exception) when (exception is RequestTimeoutException or OperationCanceledException
            && !http.RequestAborted.IsCancellationRequested)
        {
            return TypedResults.Problem($"The {worker} did not answer in time.",
                statusCode: StatusCodes.Status504GatewayTimeout, title: "Gateway timeout.");
        }
        catch (RequestFaultException fault) when (!http.RequestAborted.IsCancellationRequested)
        {
            // Refused (this API and the aggregators configured apart): asking again gets the same, so 502, not 503.
            logger.LogError("The {Worker} refused a question: {Reason}", worker, fault.Fault?.Exceptions.FirstOrDefault()?.Message ?? fault.Message);
            return TypedResults.Problem($"The {worker} refused the question; its log and this API's say why.",
                statusCode: StatusCodes.Status502BadGateway, title: "Bad gateway.");
        }
        catch (Exception exception) when (!http.RequestAborted.IsCancellationRequested)
        {
            logger.LogWarning(exception, "Asking the {Worker} failed", worker);
            return ClientErrors.WorkerUnavailable(http, worker);
        }
    }
}
