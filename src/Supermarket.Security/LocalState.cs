namespace Supermarket.Security;

/// <summary>The state folder: $SUPERMARKET_STATE_DIR, else the checkout's <c>.local</c>; null in a container.</summary>
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
