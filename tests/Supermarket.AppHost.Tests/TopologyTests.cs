using Aspire.Hosting;
using Aspire.Hosting.ApplicationModel;
using Aspire.Hosting.Eventing;
using Aspire.Hosting.Testing;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.AppHost.Operations;
using Microsoft.Extensions.Logging.Abstractions;

// The AppHost runs Debian's packages: Linux only.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]

namespace Supermarket.AppHost.Tests;

/// <summary>What the AppHost's options make of the system: its resources, their ports and who gets which secret.</summary>
public sealed class TopologyTests
{
    [Fact]
    public async Task By_default_one_of_each_runs_on_the_configured_ports()
    {
        await using var model = await ModelAsync();

        // This test's machine is new: MariaDB's data is made first.
        Assert.Equal(["api", "epmd", "mariadb", "mariadb-accounts", "mariadb-install", "purchases-writer", "rabbitmq", "sales-aggregator",
            "schema-migration"], Processes(model));
        Assert.Equal(["--urls", "http://127.0.0.1:8080", "--Management:Url", "http://127.0.0.1:9080"], await ArgumentsAsync(model, "api"));
        Assert.Equal(["--urls", "http://127.0.0.1:9111"], await ArgumentsAsync(model, "purchases-writer"));
        Assert.Equal(["migrate"], await ArgumentsAsync(model, "schema-migration"));
        Assert.DoesNotContain("Broker__ClusterNodes", await EnvironmentAsync(model, "purchases-writer"));

        // Each service is told where the broker and the database run, not left to find them by its defaults.
        foreach (var service in new[] { "api", "purchases-writer", "sales-aggregator" })
        {
            var environment = await EnvironmentAsync(model, service);
            Assert.Equal(("127.0.0.1", "5672"), (environment["Broker__Host"], environment["Broker__Port"]));
        }

        foreach (var service in new[] { "schema-migration", "purchases-writer", "sales-aggregator" })
        {
            Assert.Contains("Server=127.0.0.1;Port=3306;Database=supermarket;", (await EnvironmentAsync(model, service))["Database__ConnectionString"], StringComparison.Ordinal);
        }

        Assert.DoesNotContain("Database__ConnectionString", await EnvironmentAsync(model, "api"));
    }

    [Fact]
    public async Task Replicas_stand_behind_nginx_and_a_cluster_is_given_to_every_process()
    {
        await using var model = await ModelAsync("--api-replicas", "3", "--writers", "2", "--broker-nodes", "3");

        Assert.Equal(["api", "api-1", "api-2", "api-3", "epmd", "mariadb", "mariadb-accounts", "mariadb-install", "purchases-writer", "purchases-writer-2",
            "rabbitmq-1", "rabbitmq-2", "rabbitmq-3", "sales-aggregator", "schema-migration"], Processes(model));
        Assert.IsType<ExecutableResource>(Resource(model, "api")); // nginx
        Assert.Equal(["--urls", "http://127.0.0.1:8082", "--Management:Url", "http://127.0.0.1:9082"], await ArgumentsAsync(model, "api-2"));
        Assert.Equal(["--urls", "http://127.0.0.1:9112"], await ArgumentsAsync(model, "purchases-writer-2"));
        foreach (var process in new[] { "api-1", "purchases-writer-2", "sales-aggregator" })
        {
            var environment = await EnvironmentAsync(model, process);
            Assert.Equal("127.0.0.1:5672,127.0.0.1:5673,127.0.0.1:5674", environment["Broker__ClusterNodes"]);
            Assert.Equal("true", environment["Broker__QuorumQueues"]);
        }
    }

    [Fact]
    public async Task Aggregator_shards_and_their_replicas_each_know_their_shard_and_the_api_knows_the_count()
    {
        await using var model = await ModelAsync("--aggregator-shards", "2", "--aggregator-replicas", "2");

        string[] aggregators = ["sales-aggregator-1-1", "sales-aggregator-1-2", "sales-aggregator-2-1", "sales-aggregator-2-2"];
        Assert.Equal(aggregators, Processes(model).Where(name => name.StartsWith("sales-aggregator", StringComparison.Ordinal)));
        for (var i = 0; i < aggregators.Length; i++)
        {
            var arguments = await ArgumentsAsync(model, aggregators[i]);
            Assert.Equal(["--urls", $"http://127.0.0.1:{9101 + i}"], arguments[..2]);
            Assert.Equal(["--Aggregator:Shard", $"{(i / 2) + 1}"], arguments[^2..]);
            Assert.Equal("2", (await EnvironmentAsync(model, aggregators[i]))["SalesShards__Count"]);
        }

        Assert.Equal("2", (await EnvironmentAsync(model, "api"))["SalesShards__Count"]);
    }

    [Fact]
    public async Task Aggregators_that_would_take_the_writers_ports_are_refused()
    {
        await Assert.ThrowsAsync<System.ComponentModel.DataAnnotations.ValidationException>(() => ModelAsync("--aggregator-shards", "8", "--aggregator-replicas", "2"));
    }

    [Fact]
    public async Task Each_service_gets_its_own_accounts_and_only_the_api_the_signing_key()
    {
        await using var model = await ModelAsync();
        var accounts = Supermarket.Security.LocalAccounts.Load();

        var api = await EnvironmentAsync(model, "api");
        var writer = await EnvironmentAsync(model, "purchases-writer");
        var aggregator = await EnvironmentAsync(model, "sales-aggregator");
        var migration = await EnvironmentAsync(model, "schema-migration");

        Assert.Equal(Supermarket.Security.LocalSigningKey.Find(), api["Auth__SigningKey"]);
        Assert.All(new[] { writer, aggregator, migration }, environment => Assert.DoesNotContain("Auth__SigningKey", environment));
        Assert.Equal((accounts.BrokerApi.User, accounts.BrokerApi.Password), (api["Broker__Username"], api["Broker__Password"]));
        Assert.DoesNotContain("Database__User", api);
        Assert.Equal((accounts.BrokerWriter.User, accounts.DatabaseWriter.User), (writer["Broker__Username"], writer["Database__User"]));
        Assert.Equal((accounts.BrokerAggregator.User, accounts.DatabaseReader.User), (aggregator["Broker__Username"], aggregator["Database__User"]));
        Assert.Equal(accounts.DatabaseOwner.User, migration["Database__User"]);
        Assert.DoesNotContain("Broker__Username", migration);
    }

    [Fact]
    public async Task Secrets_are_secret_parameters_and_never_on_a_command_line()
    {
        await using var model = await ModelAsync("--api-replicas", "2");
        var accounts = Supermarket.Security.LocalAccounts.Load();
        string[] secrets = [.. accounts.All.Values.Select(account => account.Password), Supermarket.Security.LocalSigningKey.Find()!];

        var parameters = model.Resources.OfType<ParameterResource>().ToList();
        Assert.All(parameters.Where(parameter => parameter.Name.EndsWith("-password", StringComparison.Ordinal) || parameter.Name == "signing-key"),
            parameter => Assert.True(parameter.Secret, $"{parameter.Name} is not secret"));
        foreach (var resource in model.Resources.OfType<IResourceWithArgs>())
        {
            var arguments = await ArgumentsAsync(model, resource.Name);
            Assert.DoesNotContain(arguments, argument => secrets.Any(secret => argument.Contains(secret, StringComparison.Ordinal)));
        }
    }

    [Fact]
    public async Task The_services_files_are_written_as_they_start_and_those_with_a_secret_are_their_owners_alone()
    {
        await using var model = await ModelAsync();
        var accounts = Supermarket.Security.LocalAccounts.Load();
        string[] secrets = [.. accounts.All.Values.Select(account => account.Password), Supermarket.Security.LocalSigningKey.Find()!];
        string[] started = ["rabbitmq-definitions.json", "rabbitmq/rabbitmq.conf", "mariadb/my.cnf", "mariadb/accounts.sql"];
        // Building the model (a test, a publish) writes nothing the services read.
        Assert.All(started, file => Assert.False(File.Exists(Path.Combine(LocalStateOfTheTests.Directory, file)), $"{file} written by building the model"));

        await using var app = await model.BuildAsync();
        var eventing = app.Services.GetRequiredService<IDistributedApplicationEventing>();
        foreach (var resource in new[] { "rabbitmq", "mariadb", "mariadb-accounts" })
        {
            await eventing.PublishAsync(new BeforeResourceStartedEvent(Resource(model, resource), app.Services));
        }

        Assert.All(started, file => Assert.True(File.Exists(Path.Combine(LocalStateOfTheTests.Directory, file)), $"{file} not written as its resource starts"));
        // RabbitMQ's definitions hold hashes, and every file with a secret is its owner's alone.
        var definitions = File.ReadAllText(Path.Combine(LocalStateOfTheTests.Directory, "rabbitmq-definitions.json"));
        Assert.DoesNotContain(secrets, secret => definitions.Contains(secret, StringComparison.Ordinal));
        foreach (var file in new[] { "accounts.json", "rabbitmq-definitions.json", "mariadb/accounts.sql", "auth/signing-key" })
        {
            Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(Path.Combine(LocalStateOfTheTests.Directory, file)));
        }
    }

    [Fact]
    public async Task Every_writer_offers_the_replay_of_the_purchases_it_set_aside()
    {
        await using var model = await ModelAsync("--writers", "2");

        foreach (var writer in new[] { "purchases-writer", "purchases-writer-2" })
        {
            Assert.Contains(Resource(model, writer).Annotations.OfType<ResourceCommandAnnotation>(), command => command.Name == Messaging.Topology.ReplayUnstorableCommand);
        }

        Assert.DoesNotContain(Resource(model, "sales-aggregator").Annotations.OfType<ResourceCommandAnnotation>(), command => command.Name == Messaging.Topology.ReplayUnstorableCommand);
    }

    private static async Task<IDistributedApplicationTestingBuilder> ModelAsync(params string[] args) =>
        await DistributedApplicationTestingBuilder.CreateAsync<Projects.Supermarket_AppHost>(args);

    /// <summary>The processes the dashboard shows (not the hidden ones Aspire adds to rebuild a project).</summary>
    private static string[] Processes(IDistributedApplicationTestingBuilder model) =>
        [.. model.Resources
            .Where(resource => resource is ExecutableResource or ProjectResource)
            .Where(resource => resource is not IResourceWithParent)
            .Select(resource => resource.Name)
            .Order(StringComparer.Ordinal)];

    private static IResource Resource(IDistributedApplicationTestingBuilder model, string name) => model.Resources.Single(resource => resource.Name == name);

    private static async Task<string[]> ArgumentsAsync(IDistributedApplicationTestingBuilder model, string name) =>
        [.. (await RunConfigurationAsync(model, name)).Arguments.Select(argument => argument.Value)];

    private static async Task<Dictionary<string, string>> EnvironmentAsync(IDistributedApplicationTestingBuilder model, string name) =>
        (await RunConfigurationAsync(model, name)).EnvironmentVariables.ToDictionary(variable => variable.Key, variable => variable.Value);

    /// <summary>The arguments and environment a resource would be started with, as Aspire resolves them for a run.</summary>
    private static Task<IExecutionConfigurationResult> RunConfigurationAsync(IDistributedApplicationTestingBuilder model, string name) =>
        ExecutionConfigurationBuilder.Create(Resource(model, name))
            .WithArgumentsConfig()
            .WithEnvironmentVariablesConfig()
            .BuildAsync(new DistributedApplicationExecutionContext(DistributedApplicationOperation.Run), NullLogger.Instance, CancellationToken.None);
}
