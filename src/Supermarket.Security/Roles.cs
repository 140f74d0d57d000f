namespace Supermarket.Security;

/// <summary>What a credential may do, in its <c>role</c> claim.</summary>
public static class Roles
{
    /// <summary>A store's till: records purchases for the store its <see cref="Claims.Store"/> claim names.</summary>
    public const string Till = "till";

    /// <summary>Asks what sells where, and reads purchase history (personal data: every read is logged with who asked).</summary>
    public const string Analyst = "analyst";
}

/// <summary>The claims a Supermarket credential carries, by their names in the token.</summary>
public static class Claims
{
    public const string Subject = "sub";
    public const string Role = "role";

    public const string Store = "store";
}
