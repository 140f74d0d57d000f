using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.AppHost.Secrets;
using Supermarket.AppHost.Topology;

namespace Supermarket.AppHost.Services;

/// <summary>nginx before the API replicas, named "api" as the single API is (proxy: docker/nginx-proxy.conf).</summary>
public static class Nginx
{
    public static IResourceBuilder<ExecutableResource> AddNginx(this IDistributedApplicationBuilder builder, SystemTopology topology,
        IReadOnlyList<IResourceBuilder<ProjectResource>> apis)
    {
        var folder = MachineAccounts.StateFolder("nginx");
        var config = Path.Combine(folder, "nginx.conf");
        var repository = Path.GetFullPath(Path.Combine(builder.AppHostDirectory, "..", ".."));
        return builder.AddExecutable("api", "nginx", folder, "-c", config, "-p", folder)
            .WithHttpEndpoint(port: topology.PublicPort, name: "http", isProxied: false)
            .WaitForAll(apis)
            .OnBeforeResourceStarted(async (_, started, cancellation) =>
            {
                // This runs beside the waits, not after them: the first replica's /about is read once it is healthy.
                await started.Services.GetRequiredService<ResourceNotificationService>()
                    .WaitForResourceHealthyAsync(apis[0].Resource.Name, cancellation);
                Directory.CreateDirectory(Path.Combine(folder, "tmp"));
                var template = await File.ReadAllTextAsync(Path.Combine(repository, "scripts", "nginx.conf.template"), cancellation);
                var servers = string.Join('\n', apis.Select(api =>
                    $"    server 127.0.0.1:{api.GetEndpoint("http").Port} max_fails=1 fail_timeout=2s;"));
                await File.WriteAllTextAsync(config, template
                    .Replace("@STATE@", folder, StringComparison.Ordinal)
                    .Replace("@ROOT@", repository, StringComparison.Ordinal)
                    .Replace("@PORT@", $"{topology.PublicPort}", StringComparison.Ordinal)
                    .Replace("@READ_TIMEOUT@", $"{await ProxyReadTimeoutSecondsAsync(apis[0], cancellation)}", StringComparison.Ordinal)
                    .Replace("@SERVERS@", servers, StringComparison.Ordinal), cancellation);
            });
    }

    /// <summary>The API's own figure, so nginx never answers 504 for a POST the API would still answer.</summary>
    private static async Task<int> ProxyReadTimeoutSecondsAsync(IResourceBuilder<ProjectResource> api, CancellationToken cancellation)
    {
        using var http = new HttpClient();
        var about = await http.GetFromJsonAsync<JsonNode>(new Uri(new Uri(api.GetEndpoint("management").Url), "/about"), cancellation)
            ?? throw new InvalidOperationException($"{api.Resource.Name}'s /about is empty");
        return about["settings"]!["Ingest"]!["proxyReadTimeoutSeconds"]!.GetValue<int>();
    }
}
