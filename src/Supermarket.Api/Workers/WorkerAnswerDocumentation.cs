namespace Supermarket.Api.Workers;

/// <summary>What a GET that asks a worker documents besides its answer: 400, 401, 403 and 502-504.</summary>
public static class WorkerAnswerDocumentation
{
    public static RouteHandlerBuilder ProducesWorkerProblems(this RouteHandlerBuilder endpoint) =>
        endpoint.ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status401Unauthorized)
            .ProducesProblem(StatusCodes.Status403Forbidden)
            .ProducesProblem(StatusCodes.Status502BadGateway)
            .ProducesProblem(StatusCodes.Status503ServiceUnavailable)
            .ProducesProblem(StatusCodes.Status504GatewayTimeout);
}
