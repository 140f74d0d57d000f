using System.ComponentModel.DataAnnotations;

namespace Supermarket.Security;

/// <summary>Who the API lets in. Section <c>Auth</c>.</summary>
public sealed class AuthOptions
{
    public const string Section = "Auth";

    /// <summary>False: the course's API is open; purchase history never is (docs/security.md).</summary>
    public bool RequireForCourseApi { get; set; }

    [Required]
    public string Issuer { get; set; } = "supermarket";

    [Required]
    public string Audience { get; set; } = "supermarket-api";

    /// <summary>Unset, and no <see cref="Authority"/>: no credential is accepted (history: 401 to all).</summary>
    public string? SigningKey { get; set; }

    public string? Authority { get; set; }

    public bool AcceptsCredentials => !string.IsNullOrEmpty(SigningKey) || !string.IsNullOrEmpty(Authority);

    /// <summary>The section as a host binds it, else this machine's key: for the credential-issuing commands.</summary>
    public static AuthOptions ForIssuing()
    {
        static string? Read(string name) => Environment.GetEnvironmentVariable($"{Section}__{name}");
        var options = new AuthOptions { SigningKey = Read(nameof(SigningKey)) ?? LocalSigningKey.Find() };
        options.Issuer = Read(nameof(Issuer)) ?? options.Issuer;
        options.Audience = Read(nameof(Audience)) ?? options.Audience;
        return options;
    }
}
