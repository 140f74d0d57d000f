using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// <c>--prime</c>: before its first arrival the load generator sends the run's load, at its first rate, to a bare
/// server of its own on loopback (the course's route answering 201, as the ceiling does), so that its own start, its
/// JIT and its first connections, is not timed as the system's. The system sees none of it.
/// </summary>
public static class ClientPriming
{
    /// <returns>How many purchases the bare server answered 201.</returns>
    public static async Task<long> PrimeAsync(LoadOptions options)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0));
        await using var server = builder.Build();
        server.MapPost("/purchase/{storeID}/customer/{custID}/date/{date}", () => Results.StatusCode(StatusCodes.Status201Created));
        await server.StartAsync();

        var firstRate = options.Simulation == Simulation.Ramp ? options.RampFrom : options.Rate;
        var primed = options with
        {
            Url = new Uri(server.Urls.First()),
            Simulation = Simulation.Constant,
            Rate = firstRate,
            Hours = 1,
            PurchasesPerHour = Math.Max(1, (int)(firstRate * options.Prime.TotalSeconds)),
            RetryFor = TimeSpan.Zero,
        };
        using var client = PurchaseSender.CreateClient(primed);
        var log = new RequestLog(primed.TotalPurchases);
        var sender = new PurchaseSender(client, log, new SalesTally([]), new HistorySample(1), primed, new PurchaseOutcomes());
        await new ChainDay(primed, sender).RunAsync();
        await server.StopAsync();
        return log.Count - log.Failures;
    }
}
