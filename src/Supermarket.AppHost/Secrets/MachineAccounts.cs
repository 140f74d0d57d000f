using Supermarket.Security;

namespace Supermarket.AppHost.Secrets;

public sealed record ServiceAccount(IResourceBuilder<ParameterResource> User, IResourceBuilder<ParameterResource> Password);

/// <summary>This machine's accounts and signing key as secret parameters: each service gets its own in its environment,
/// never on a command line, and the dashboard shows them masked.</summary>
public sealed class MachineAccounts
{
    public required ServiceAccount BrokerApi { get; init; }
    public required ServiceAccount BrokerWriter { get; init; }
    public required ServiceAccount BrokerAggregator { get; init; }
    public required ServiceAccount DatabaseOwner { get; init; }
    public required ServiceAccount DatabaseWriter { get; init; }
    public required ServiceAccount DatabaseReader { get; init; }
    public required IResourceBuilder<ParameterResource> SigningKey { get; init; }

    public required LocalAccounts Local { get; init; }

    public static MachineAccounts AsParameters(IDistributedApplicationBuilder builder)
    {
        var local = LocalAccounts.GetOrCreate();

        IResourceBuilder<ParameterResource> Parameter(string name, string value, bool secret)
        {
            builder.Configuration[$"Parameters:{name}"] = value;
            return builder.AddParameter(name, secret);
        }

        ServiceAccount Of(string name, Account account) =>
            new(Parameter($"{name}-user", account.User, secret: false), Parameter($"{name}-password", account.Password, secret: true));

        return new MachineAccounts
        {
            BrokerApi = Of("broker-api", local.BrokerApi),
            BrokerWriter = Of("broker-writer", local.BrokerWriter),
            BrokerAggregator = Of("broker-aggregator", local.BrokerAggregator),
            DatabaseOwner = Of("database-owner", local.DatabaseOwner),
            DatabaseWriter = Of("database-writer", local.DatabaseWriter),
            DatabaseReader = Of("database-reader", local.DatabaseReader),
            SigningKey = Parameter("signing-key", LocalSigningKey.GetOrCreate(), secret: true),
            Local = local,
        };
    }

    public static string StateFolder(string name) =>
        Path.Combine(LocalState.Directory ?? throw new InvalidOperationException("No local state folder: run the AppHost from a checkout."), name);
}
