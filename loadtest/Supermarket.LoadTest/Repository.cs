namespace Supermarket.LoadTest;

/// <summary>The clone the load test runs from: the folder with Supermarket.sln above the program or the current
/// folder (in the load test's container there is none).</summary>
public static class Repository
{
    public static string? Root() => Above(AppContext.BaseDirectory) ?? Above(Environment.CurrentDirectory);

    private static string? Above(string folder)
    {
        for (var directory = new DirectoryInfo(folder); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Supermarket.sln")))
            {
                return directory.FullName;
            }
        }

        return null;
    }
}
