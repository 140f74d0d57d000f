using System.Globalization;
using Supermarket.AppHost.Operations;
using Supermarket.AppHost.Secrets;
using Supermarket.AppHost.Services;
using Supermarket.AppHost.Topology;

// RabbitMQ, MariaDB and nginx are Debian's packages, run as executables.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]

// The whole system, written once: `./run.sh up` starts it, the dashboard shows it; its options are SystemTopology's.
var builder = DistributedApplication.CreateBuilder(args);
var topology = SystemTopology.Bind(builder.Configuration, args);

var accounts = MachineAccounts.AsParameters(builder);

var broker = builder.AddBroker(topology, accounts.Local);
var (_, database) = builder.AddMariaDb(accounts.Local);

// The migration is a step of its own, as the schema owner: the writers' account may only read and write rows.
var migration = builder.AddProject<Projects.Supermarket_PurchasesWriter>("schema-migration")
    .WithArgs("migrate")
    .WithDatabase(accounts.DatabaseOwner)
    .WaitForCompletion(database);

// The APIs start after the writers: only a writer declares its queue, and a purchase posted before that gets 503.
// Nothing waits for the aggregators, whose rebuild may take a while: the questions wait instead.
var writers = topology.WriterProcesses().Select(writer => builder.AddProject<Projects.Supermarket_PurchasesWriter>(writer.Name)
        .WithManagementPort(writer.ManagementPort)
        .WithBroker(broker, accounts.BrokerWriter)
        .WithDatabase(accounts.DatabaseWriter)
        .WaitForCompletion(migration)
        .WithUnstorablePurchasesReplay(broker[0].Node, accounts.Local))
    .ToList();

foreach (var aggregator in topology.AggregatorProcesses())
{
    builder.AddProject<Projects.Supermarket_SalesAggregator>(aggregator.Name)
        .WithManagementPort(aggregator.ManagementPort)
        .WithArgs("--Aggregator:CheckpointDirectory", MachineAccounts.StateFolder("store"), "--Aggregator:Shard", aggregator.Shard.ToString(CultureInfo.InvariantCulture))
        .WithSalesShards(topology)
        .WithBroker(broker, accounts.BrokerAggregator)
        .WithDatabase(accounts.DatabaseReader)
        .WaitForCompletion(migration);
}

var apis = topology.ApiProcesses().Select(api => builder.AddProject<Projects.Supermarket_Api>(api.Name)
        .WithPublicPort(api.PublicPort)
        .WithManagementPort(api.ManagementPort, "Management:Url")
        .WithBroker(broker, accounts.BrokerApi)
        .WithSalesShards(topology)
        .WithEnvironment("Auth__SigningKey", accounts.SigningKey)
        .WaitForAll(writers))
    .ToList();

// "api" is what the public reaches: the API itself, or nginx in front of its replicas.
if (apis.Count > 1)
{
    builder.AddNginx(topology, apis);
}

builder.Build().Run();
