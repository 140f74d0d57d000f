using MassTransit;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;

namespace Supermarket.Api.Tests.OpenApi;

/// <summary>
/// The API's contract, as Swagger UI shows it, is committed beside the API (<c>src/Supermarket.Api/Supermarket.Api.json</c>,
/// as eShop commits its services' OpenAPI documents): a change to a route, a status, a schema or the security scheme
/// shows in the review as a change to that file, not only in the code that made it. The document is the one the API
/// serves with its default settings (the course's API open, as the AppHost runs it).
/// </summary>
public sealed class ApiContractTests
{
    private static readonly string Committed = Path.Combine(RepositoryRoot(), "src", "Supermarket.Api", "Supermarket.Api.json");

    [Fact]
    public async Task The_openapi_document_is_the_committed_contract()
    {
        await using var api = new WebApplicationFactory<Program>().WithWebHostBuilder(host => host
            .UseSetting("Broker:Username", "api")
            .UseSetting("Broker:Password", "unused")
            .ConfigureTestServices(services => services.AddMassTransitTestHarness(bus =>
                bus.UsingInMemory((context, memory) => memory.ConfigureEndpoints(context)))));

        var served = (await api.CreateClient().GetStringAsync("/swagger/v1/swagger.json")).ReplaceLineEndings("\n").TrimEnd() + "\n";

        if (!File.Exists(Committed) || await File.ReadAllTextAsync(Committed) != served)
        {
            var proposed = Path.Combine(Path.GetTempPath(), $"Supermarket.Api-{Environment.ProcessId}.json");
            await File.WriteAllTextAsync(proposed, served);
            Assert.Fail($"The API serves an OpenAPI document other than {Path.GetRelativePath(RepositoryRoot(), Committed)}. "
                + $"If the change is meant, copy {proposed} there and commit it with the change.");
        }
    }

    private static string RepositoryRoot()
    {
        var folder = new DirectoryInfo(AppContext.BaseDirectory);
        while (folder is not null && !File.Exists(Path.Combine(folder.FullName, "Supermarket.sln")))
        {
            folder = folder.Parent;
        }

        return folder?.FullName ?? throw new InvalidOperationException("No Supermarket.sln above the test's folder.");
    }
}
