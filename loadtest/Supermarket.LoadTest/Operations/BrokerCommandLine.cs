using System.CommandLine;
using Supermarket.Faults;
using Supermarket.Messaging;

namespace Supermarket.LoadTest.Operations;

/// <summary>The <c>broker delete-queues</c> command: every queue of the system's vhost deleted, with what it holds, on
/// the AppHost of this checkout (which <c>./run.sh up</c> started), as its operator (rabbitmqctl as the node, through
/// <see cref="SystemFaults"/>); the applications declare theirs again as they start. For a queue whose arguments
/// changed (docs/api.md: the writer's backlog limit) and a measuring session that starts from nothing
/// (loadtest/measure.sh's FRESH=1).</summary>
public sealed class BrokerCommandLine
{
    public BrokerCommandLine()
    {
        var deleteQueues = new Command("delete-queues", "delete every queue of the system's vhost with what it holds (the applications declare theirs again as they start)");
        deleteQueues.SetAction(async (_, cancel) =>
        {
            var repository = Repository.Root() ?? throw new InvalidOperationException("the broker command runs from a clone (no Supermarket.sln above it)");
            var virtualHost = new BrokerOptions().VirtualHost;
            var deleted = await new SystemFaults(new AspireCli(repository)).DeleteQueuesAsync(virtualHost, cancel);
            Console.WriteLine($"deleted {deleted.Count} queues of the vhost {virtualHost}{(deleted.Count > 0 ? ": " : "")}{string.Join(", ", deleted)}");
            return 0;
        });
        Command = new Command("broker", "the system's RabbitMQ, as its operator") { deleteQueues };
    }

    public Command Command { get; }
}
