using System.ComponentModel.DataAnnotations;

namespace Supermarket.Security;

/// <summary>Who the API lets in. Section <c>Auth</c>.</summary>
public sealed class AuthOptions
{
    public const string Section = "Auth";

    /// <summary>False (the default on a local run): the course's published API (POST a purchase, the two sales
    /// questions) is open, as the course's unchanged clients expect, and the API warns at start that it is. True (the
    /// deployment): a POST needs a till's credential for its store, a sales question an analyst's. Purchase history
    /// always needs an analyst's credential, whatever this says.</summary>
    public bool RequireForCourseApi { get; set; }

    [Required]
    public string Issuer { get; set; } = "supermarket";

    [Required]
    public string Audience { get; set; } = "supermarket-api";

    /// <summary>The key local credentials are signed with: base64 of at least 32 random bytes (the AppHost makes
    /// one per machine in <c>.local/auth/signing-key</c>). Unset, and without an <see cref="Authority"/>, no credential
    /// is accepted: purchase history answers 401 to everyone.</summary>
    public string? SigningKey { get; set; }

    /// <summary>An OpenID Connect issuer whose published keys sign the credentials instead (an identity provider in a
    /// real deployment).</summary>
    public string? Authority { get; set; }

    public bool AcceptsCredentials => !string.IsNullOrEmpty(SigningKey) || !string.IsNullOrEmpty(Authority);

    /// <summary>The section from environment variables (<c>Auth__SigningKey</c>, …), as a host would bind it, with this
    /// machine's key (<see cref="LocalSigningKey"/>) when they give none: for the commands that issue credentials
    /// outside a host (the credentials command, the load test).</summary>
    public static AuthOptions ForIssuing()
    {
        static string? Read(string name) => Environment.GetEnvironmentVariable($"{Section}__{name}");
        var options = new AuthOptions { SigningKey = Read(nameof(SigningKey)) ?? LocalSigningKey.Find() };
        options.Issuer = Read(nameof(Issuer)) ?? options.Issuer;
        options.Audience = Read(nameof(Audience)) ?? options.Audience;
        return options;
    }
}
