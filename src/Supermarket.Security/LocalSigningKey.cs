namespace Supermarket.Security;

/// <summary>This machine's signing key (<c>.local/auth/signing-key</c>, made by the AppHost): the commands that issue
/// credentials beside a local system read it here, so a user sets no variable by hand.</summary>
public static class LocalSigningKey
{
    private static string? FilePath => LocalState.Directory is { } state ? Path.Combine(state, "auth", "signing-key") : null;

    public static string? Find() => FilePath is { } path && File.Exists(path) ? File.ReadAllText(path).Trim() : null;

    public static string GetOrCreate()
    {
        if (Find() is { Length: > 0 } key)
        {
            return key;
        }

        key = LocalCredentials.NewSigningKey();
        OwnerOnlyFile.Write(FilePath ?? throw new InvalidOperationException("No local state folder: run from a checkout, or set SUPERMARKET_STATE_DIR."), key);
        return key;
    }
}
