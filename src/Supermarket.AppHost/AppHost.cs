using System.Globalization;
using Supermarket.AppHost.Operations;
using Supermarket.AppHost.Secrets;
using Supermarket.AppHost.Services;
using Supermarket.AppHost.Topology;

// The services are Debian's packages, run as executables.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]

// The whole system, written once: `./run.sh up` (or `dotnet run --project src/Supermarket.AppHost`) starts it and the
// Aspire dashboard shows it. Options: --api-replicas N, --writers M, --broker-nodes N, --aggregator-shards N,
// --aggregator-replicas R (SystemTopology). The load test is not part of it: ./run.sh runs it once the system is up.
var builder = DistributedApplication.CreateBuilder(args);
var topology = SystemTopology.Bind(builder.Configuration, args);

var accounts = MachineAccounts.AsParameters(builder);

// RabbitMQ (one node or a cluster) and MariaDB, from Debian's packages, with this machine's accounts.
var broker = builder.AddBroker(topology, accounts.Local);
var (_, database) = builder.AddMariaDb(accounts.Local);

// The schema is migrated first, by a step of its own with the schema owner's account; the writers' account may only
// read and write rows.
var migration = builder.AddProject<Projects.Supermarket_PurchasesWriter>("schema-migration")
    .WithArgs("migrate")
    .WithDatabase(accounts.DatabaseOwner)
    .WaitForCompletion(database);

// The writers compete on one queue; the APIs start after them, since only a writer declares that queue and a purchase
// posted before it exists gets a 503. Nothing waits on the aggregator, whose rebuild on a long history may take a
// while: questions wait for it.
var writers = topology.WriterProcesses().Select(writer => builder.AddProject<Projects.Supermarket_PurchasesWriter>(writer.Name)
        .WithManagementPort(writer.ManagementPort)
        .WithBroker(broker, accounts.BrokerWriter)
        .WithDatabase(accounts.DatabaseWriter)
        .WaitForCompletion(migration)
        .WithUnstorablePurchasesReplay(broker[0].Node, accounts.Local))
    .ToList();

// Each aggregator counts its shard's items (all of them, unless --aggregator-shards says otherwise); a shard's
// replicas share its checkpoint file, which each replaces whole.
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

// The public API is the resource named "api": the API itself, or nginx in front of its replicas, waiting for an answer
// as long as the API says a proxy must.
if (apis.Count > 1)
{
    builder.AddNginx(topology, apis);
}

builder.Build().Run();
