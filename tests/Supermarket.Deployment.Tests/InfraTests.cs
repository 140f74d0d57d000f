using System.Diagnostics;
using System.Reflection;
using System.Text.Json;

namespace Supermarket.Deployment.Tests;

/// <summary>
/// The Azure deployment (azure.yaml, infra/*.bicep) cannot be deployed from here; what can be known here is that the
/// Bicep CLI compiles it and its linter finds nothing, and that azd's files point at what exists.
/// </summary>
public sealed class InfraTests
{
    private static readonly string Infra = Path.Combine(ComposeFile.RepositoryRoot(), "infra");

    [Fact]
    public async Task The_Azure_deployment_compiles_to_an_ARM_template()
    {
        var (exit, output, errors) = await BicepAsync("build", Path.Combine(Infra, "main.bicep"), "--stdout");

        Assert.True(exit == 0, $"bicep build failed: {errors}");
        using var template = JsonDocument.Parse(output);
        Assert.EndsWith("/subscriptionDeploymentTemplate.json#", template.RootElement.GetProperty("$schema").GetString(), StringComparison.Ordinal);
        Assert.True(template.RootElement.GetProperty("resources").GetArrayLength() >= 2, "the template deploys nothing");
    }

    [Fact]
    public async Task Each_sales_shard_is_an_app_of_its_own_and_the_API_is_told_how_many_there_are()
    {
        var (exit, output, errors) = await BicepAsync("build", Path.Combine(Infra, "main.bicep"), "--stdout");
        Assert.True(exit == 0, $"bicep build failed: {errors}");
        using var template = JsonDocument.Parse(output);
        var system = template.RootElement.GetProperty("resources").EnumerateArray()
            .Single(resource => resource.GetProperty("name").GetString() == "supermarket").GetProperty("properties").GetProperty("template");
        var deployments = system.GetProperty("resources").EnumerateArray()
            .Where(resource => resource.GetProperty("type").GetString() == "Microsoft.Resources/deployments").ToList();

        var aggregator = deployments.Single(d => d.GetProperty("name").GetString()!.Contains("sales-aggregator", StringComparison.Ordinal));
        Assert.Equal("[length(range(1, parameters('salesShards')))]", aggregator.GetProperty("copy").GetProperty("count").GetString());
        var aggregatorEnv = aggregator.GetProperty("properties").GetProperty("parameters").GetProperty("env").GetProperty("value").GetString()!;
        Assert.Contains("'Aggregator__Shard'", aggregatorEnv, StringComparison.Ordinal);
        Assert.Contains("'SalesShards__Count', 'value', string(parameters('salesShards'))", aggregatorEnv, StringComparison.Ordinal);
        var api = deployments.Single(d => d.GetProperty("name").GetString() == "api");
        Assert.Contains("'SalesShards__Count', 'value', string(parameters('salesShards'))",
            api.GetProperty("properties").GetProperty("parameters").GetProperty("env").GetProperty("value").GetString()!, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("main.bicep")]
    [InlineData("resources.bicep")]
    [InlineData("app.bicep")]
    public async Task The_linter_finds_nothing(string file)
    {
        var (exit, output, errors) = await BicepAsync("lint", Path.Combine(Infra, file), "--diagnostics-format", "sarif");

        Assert.True(exit == 0, $"bicep lint failed: {errors}");
        using var sarif = JsonDocument.Parse(output);
        var results = sarif.RootElement.GetProperty("runs")[0].GetProperty("results").EnumerateArray()
            .Select(result => $"{result.GetProperty("ruleId").GetString()}: {result.GetProperty("message").GetProperty("text").GetString()}").ToList();
        Assert.True(results.Count == 0, string.Join(Environment.NewLine, results));
    }

    /// <summary>The writers scale on their queue's length: the queue KEDA watches is the one the writers consume.</summary>
    [Fact]
    public void The_writers_scale_on_the_queue_they_consume()
    {
        var resources = File.ReadAllText(Path.Combine(Infra, "resources.bicep"));

        Assert.Contains($"var writerQueue = '{Supermarket.Messaging.Topology.PurchasesWriterQueue}'", resources, StringComparison.Ordinal);
        Assert.Contains("queueName: writerQueue", resources, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_service_azd_deploys_is_an_image_compose_builds_and_its_hook_exists()
    {
        var azure = File.ReadAllLines(Path.Combine(ComposeFile.RepositoryRoot(), "azure.yaml"));
        var apps = azure.Select(line => line.Trim()).Where(line => line.StartsWith("- APP=", StringComparison.Ordinal))
            .Select(line => line["- APP=".Length..]).ToList();

        Assert.Equal(["Supermarket.Api", "Supermarket.PurchasesWriter", "Supermarket.SalesAggregator"], apps.Order());
        Assert.All(apps, app => Assert.Contains(app, ComposeFile.BuiltApps()));
        var hooks = azure.Select(line => line.Trim()).Where(line => line.StartsWith("run: ", StringComparison.Ordinal)).Select(line => line["run: ".Length..]).ToList();
        Assert.Equal(["infra/hooks/migrate-schema.sh", "infra/hooks/mysql-users.sh", "infra/hooks/sales-shards.sh"], hooks.Order());
        Assert.All(hooks, hook => Assert.True(File.Exists(Path.Combine(ComposeFile.RepositoryRoot(), hook)), $"azure.yaml's hook {hook} does not exist"));
    }

    private static async Task<(int Exit, string Output, string Errors)> BicepAsync(params string[] arguments)
    {
        var bicep = typeof(InfraTests).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == "BicepPath").Value!;
        var start = new ProcessStartInfo(bicep) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        return (process.ExitCode, await output, await errors);
    }
}
