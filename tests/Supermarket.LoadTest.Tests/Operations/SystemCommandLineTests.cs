using System.CommandLine;
using Supermarket.Faults;
using Supermarket.LoadTest.Operations;

namespace Supermarket.LoadTest.Tests.Operations;

/// <summary>The load test's <c>system pids|names|url</c>, which loadtest/measure.sh reads the AppHost through, against
/// an AppHost of the test's own: what each prints on the output (nothing else), and an error on the error output alone
/// with a non-zero exit code.</summary>
public sealed class SystemCommandLineTests
{
    private static readonly AppHostResource[] Resources =
    [
        Resource("rabbitmq", pid: 100),
        Resource("mariadb", pid: 200),
        Resource("purchases-writer", pid: null),
        Resource("sales-aggregator", pid: 300, urls: new() { ["http"] = new Uri("http://localhost:5301"), ["management"] = new Uri("http://localhost:5302") }),
        Resource("sales-aggregator-2", pid: 400),
        Resource("api-sales-aggregator", pid: 500),
    ];

    /// <summary>The worker of each process the AppHost started: its newest child where it has one (rabbitmq-server's
    /// script runs the Erlang VM).</summary>
    private static readonly Dictionary<int, int> Children = new() { [100] = 101, [300] = 301 };

    [Theory]
    [InlineData("system", "pids")]
    [InlineData("system", "names", "sales-aggregator")]
    [InlineData("system", "url", "sales-aggregator", "management")]
    public void Each_system_verb_parses(params string[] args)
    {
        var parsed = new LoadCommandLine().Command.Parse(args);

        Assert.Empty(parsed.Errors);
        Assert.Equal(args[1], parsed.CommandResult.Command.Name);
    }

    [Theory]
    [InlineData("system")]
    [InlineData("system", "pid")]
    [InlineData("system", "describe", "api")]
    [InlineData("system", "pids", "api")]
    [InlineData("system", "names")]
    [InlineData("system", "url", "sales-aggregator")]
    public void An_unknown_system_verb_or_missing_argument_is_refused(params string[] args)
    {
        Assert.NotEmpty(new LoadCommandLine().Command.Parse(args).Errors);
    }

    [Fact]
    public async Task Pids_names_each_resource_with_a_process_and_its_worker()
    {
        var (exit, output, errors) = await RunAsync("system", "pids");

        Assert.Equal(0, exit);
        Assert.Equal("", errors);
        // profile-report.sh reads "name pid", split at a space; purchases-writer has no process now, and no line.
        Assert.Equal(["rabbitmq 101", "mariadb 200", "sales-aggregator 301", "sales-aggregator-2 400", "api-sales-aggregator 500"], Lines(output));
    }

    [Fact]
    public async Task Names_are_the_resources_whose_names_start_with_the_prefix()
    {
        var (exit, output, errors) = await RunAsync("system", "names", "sales-aggregator");

        Assert.Equal(0, exit);
        Assert.Equal("", errors);
        Assert.Equal(["sales-aggregator", "sales-aggregator-2"], Lines(output));
        Assert.Empty(Lines((await RunAsync("system", "names", "nginx")).Output));
    }

    [Fact]
    public async Task Url_is_the_endpoint_s_address_a_path_can_follow()
    {
        var (exit, output, errors) = await RunAsync("system", "url", "sales-aggregator", "management");

        Assert.Equal(0, exit);
        Assert.Equal("", errors);
        Assert.Equal(["http://localhost:5302"], Lines(output));
    }

    [Fact]
    public async Task An_unknown_endpoint_is_an_error_naming_those_the_resource_has_and_prints_nothing()
    {
        var (exit, output, errors) = await RunAsync("system", "url", "sales-aggregator", "managment");

        Assert.NotEqual(0, exit);
        Assert.Equal("", output);
        Assert.Contains("sales-aggregator has no endpoint managment (its endpoints: http, management)", errors);
    }

    [Fact]
    public async Task An_unknown_resource_is_an_error_and_prints_nothing()
    {
        var (exit, output, errors) = await RunAsync("system", "url", "nginx", "http");

        Assert.NotEqual(0, exit);
        Assert.Equal("", output);
        Assert.Contains("The AppHost has no resource nginx.", errors);
    }

    private static async Task<(int Exit, string Output, string Errors)> RunAsync(params string[] args)
    {
        var command = new RootCommand { new SystemCommandLine(() => new ListedAppHost(Resources), pid => Children.GetValueOrDefault(pid, pid)).Command };
        var output = new StringWriter();
        var errors = new StringWriter();

        var exit = await command.Parse(args).InvokeAsync(new InvocationConfiguration { Output = output, Error = errors });

        return (exit, output.ToString(), errors.ToString());
    }

    private static string[] Lines(string output) => output.Split('\n', StringSplitOptions.RemoveEmptyEntries);

    /// <summary>With no AppHost up the CLI prints no JSON: an error the command prints, not an unhandled exception.</summary>
    [Theory]
    [InlineData("")]
    [InlineData("No running AppHost found.")]
    public void No_AppHost_described_is_an_error_that_says_so(string printed) =>
        Assert.Contains("./run.sh up", Assert.Throws<InvalidOperationException>(() => AspireCli.ResourcesOf(printed).ToList()).Message);

    private static AppHostResource Resource(string name, int? pid, Dictionary<string, Uri>? urls = null) =>
        new(name, pid is null ? "Exited" : "Running", pid is null ? null : "Healthy", pid, new Dictionary<string, string>(), urls ?? new Dictionary<string, Uri>(), WorkingDirectory: null);

    /// <summary>An AppHost that only tells what it runs, as AspireCli reads it: a resource it does not have is an
    /// error, as the CLI's is.</summary>
    private sealed class ListedAppHost(IReadOnlyList<AppHostResource> resources) : IAppHostResources
    {
        public Task<IReadOnlyList<AppHostResource>> ListAsync(CancellationToken cancellationToken) => Task.FromResult(resources);

        public Task<AppHostResource> DescribeAsync(string resource, CancellationToken cancellationToken) =>
            Task.FromResult(resources.FirstOrDefault(r => r.Name == resource) ?? throw new InvalidOperationException($"The AppHost has no resource {resource}."));

        public Task CommandAsync(string resource, ResourceCommand command, CancellationToken cancellationToken) =>
            throw new InvalidOperationException("the system command only reads");

        public Task WaitAsync(string resource, ResourceStatus status, TimeSpan patience, CancellationToken cancellationToken) =>
            throw new InvalidOperationException("the system command only reads");
    }
}
