using System.Text.RegularExpressions;

namespace Supermarket.Deployment.Tests;

/// <summary>The database's schema and every statement on its tables live in Supermarket.Database (and the load test's
/// reader, loadtest/Supermarket.Database.LoadTest): a column changed there breaks the build of every user, instead
/// of a statement elsewhere failing at run time.</summary>
public sealed partial class SchemaOwnershipTests
{
    [Fact]
    public void Only_the_database_projects_hold_statements_on_its_tables()
    {
        var root = ComposeFile.RepositoryRoot();
        var speaking = new[] { "src", "loadtest" }
            .SelectMany(folder => Directory.EnumerateFiles(Path.Combine(root, folder), "*.*", SearchOption.AllDirectories))
            .Where(file => file.EndsWith(".cs", StringComparison.Ordinal) || file.EndsWith(".sql", StringComparison.Ordinal))
            .Where(file => !file.Contains("/obj/", StringComparison.Ordinal) && !file.Contains("/bin/", StringComparison.Ordinal))
            .Where(file => TableStatement().IsMatch(File.ReadAllText(file)))
            .Select(file => Path.GetRelativePath(root, file))
            .ToList();

        Assert.Contains(speaking, file => file.StartsWith("src/Supermarket.Database/Schema/Migrations/", StringComparison.Ordinal));
        Assert.All(speaking, file => Assert.Matches(@"^(src/Supermarket\.Database|loadtest/Supermarket\.Database\.LoadTest)/", file));
    }

    [GeneratedRegex("CREATE TABLE|INSERT INTO|FROM purchases|FROM sales_ledger")]
    private static partial Regex TableStatement();
}
