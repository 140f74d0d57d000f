using System.Security.Claims;
using System.Security.Cryptography;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Supermarket.Security;

/// <summary>JWTs signed with <see cref="AuthOptions.SigningKey"/>, for local runs and the tests.</summary>
public static class LocalCredentials
{
    private const int MinimumKeyBytes = 32;

    public static string NewSigningKey() => Convert.ToBase64String(RandomNumberGenerator.GetBytes(48));

    public static string ForTill(AuthOptions options, int store, TimeSpan lifetime) =>
        Issue(options, $"till-{store}", Roles.Till, lifetime, new Claim(Claims.Store, store.ToString(System.Globalization.CultureInfo.InvariantCulture), ClaimValueTypes.Integer32));

    public static string ForAnalyst(AuthOptions options, string name, TimeSpan lifetime) =>
        Issue(options, name, Roles.Analyst, lifetime);

    public static TokenValidationParameters ValidationParameters(AuthOptions options) => new()
    {
        ValidIssuer = options.Issuer,
        ValidAudience = options.Audience,
        IssuerSigningKey = string.IsNullOrEmpty(options.SigningKey) ? null : Key(options.SigningKey),
        NameClaimType = Claims.Subject,
        RoleClaimType = Claims.Role,
    };

    private static string Issue(AuthOptions options, string subject, string role, TimeSpan lifetime, params Claim[] more)
    {
        var key = options.SigningKey is { Length: > 0 } signingKey
            ? Key(signingKey)
            : throw new InvalidOperationException($"{AuthOptions.Section}:{nameof(AuthOptions.SigningKey)} is not set: there is no key to sign a local credential with.");
        var now = DateTime.UtcNow;
        return new JsonWebTokenHandler().CreateToken(new SecurityTokenDescriptor
        {
            Issuer = options.Issuer,
            Audience = options.Audience,
            Subject = new ClaimsIdentity([new Claim(Claims.Subject, subject), new Claim(Claims.Role, role), .. more]),
            NotBefore = now,
            IssuedAt = now,
            Expires = now + lifetime,
            SigningCredentials = new SigningCredentials(key, SecurityAlgorithms.HmacSha256),
        });
    }

    /// <summary>At least 32 bytes: HMAC-SHA256's key size.</summary>
    public static bool IsUsableKey(string base64)
    {
        var bytes = new byte[((base64.Length * 3) / 4) + 3];
        return Convert.TryFromBase64String(base64, bytes, out var length) && length >= MinimumKeyBytes;
    }

    private static SymmetricSecurityKey Key(string base64) =>
        IsUsableKey(base64)
            ? new SymmetricSecurityKey(Convert.FromBase64String(base64))
            : throw new InvalidOperationException(UnusableKey);

    public static string UnusableKey { get; } =
        $"{AuthOptions.Section}:{nameof(AuthOptions.SigningKey)} must be base64 of at least {MinimumKeyBytes} bytes (./run.sh makes one: docs/security.md).";
}
