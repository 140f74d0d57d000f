namespace Supermarket.Security;

/// <summary>Where this machine keeps the local system's state (its accounts, its signing key, the services' data):
/// <c>$SUPERMARKET_STATE_DIR</c> when it is set (as the scripts read it), else the <c>.local</c> folder of the checkout
/// this program runs from. Null for a program outside a checkout (a container).</summary>
public static class LocalState
{
    public static string? Directory { get; } = Find();

    private static string? Find()
    {
        if (Environment.GetEnvironmentVariable("SUPERMARKET_STATE_DIR") is { Length: > 0 } configured)
        {
            return configured;
        }

        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "run.sh")))
            {
                return Path.Combine(folder.FullName, ".local");
            }
        }

        return null;
    }
}
