namespace Supermarket.Api.Workers;

/// <summary>What a GET that asks a worker documents besides its answer, which its typed result documents itself
/// (<see cref="WorkerQuestions"/>): 400 for bad input, 401 and 403, and 502, 503 and 504 from the asking.</summary>
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
