using System.CommandLine;
using Supermarket.Database.LoadTest;
using Supermarket.Faults;

namespace Supermarket.LoadTest.Operations;

/// <summary>The <c>database empty</c> command: the system's database dropped and made again, empty, on the AppHost of
/// this checkout (which <c>./run.sh up</c> started), as its operator, for a measuring session that starts from nothing
/// (loadtest/measure.sh's FRESH=1). The system is restarted afterwards, so that the migration makes the schema.</summary>
public sealed class DatabaseCommandLine
{
    public DatabaseCommandLine()
    {
        var empty = new Command("empty", "drop the system's database and make it again, empty (restart the system afterwards: ./run.sh up)");
        empty.SetAction(async (_, cancel) =>
        {
            var repository = Repository.Root() ?? throw new InvalidOperationException("the database command runs from a clone (no Supermarket.sln above it)");
            await new SystemFaults(new AspireCli(repository)).DatabaseAsync(MeasuringStatements.EmptyDatabase(SystemFaults.SystemDatabase), cancel);
            return 0;
        });
        Command = new Command("database", "the system's database, as its operator") { empty };
    }

    public Command Command { get; }
}
