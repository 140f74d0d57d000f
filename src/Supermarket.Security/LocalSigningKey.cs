namespace Supermarket.Security;

/// <summary>The key this machine's local credentials are signed with (<see cref="AuthOptions.SigningKey"/>), made once
/// per machine in <c>.local/auth/signing-key</c> (mode 600) by the AppHost, which gives it to the API alone. The
/// commands that issue credentials beside a local system (the load test, the credentials command) read it here, so a
/// user sets no variable by hand.</summary>
public static class LocalSigningKey
{
    private static string? FilePath => LocalState.Directory is { } state ? Path.Combine(state, "auth", "signing-key") : null;

    /// <summary>The key, or null on a machine that has none yet (or outside a checkout).</summary>
    public static string? Find() => FilePath is { } path && File.Exists(path) ? File.ReadAllText(path).Trim() : null;

    /// <summary>The key, made now if this machine has none.</summary>
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
