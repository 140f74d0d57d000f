using System.ComponentModel.DataAnnotations;

namespace Supermarket.ServiceDefaults.Management;

/// <summary>Where a process answers <c>/health/*</c>, <c>/metrics</c> and <c>/about</c>. Section <c>Management</c>.</summary>
public sealed class ManagementOptions : IValidatableObject
{
    public const string Section = "Management";

    /// <summary>Also listened on; the only address the management endpoints answer on (unset: all).</summary>
    public string? Url { get; set; }

    public int? Port => string.IsNullOrEmpty(Url) ? null : new Uri(Url).Port;

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (!string.IsNullOrEmpty(Url) && (!Uri.TryCreate(Url, UriKind.Absolute, out var url) || url.Port <= 0 || url.Scheme != Uri.UriSchemeHttp))
        {
            yield return new ValidationResult($"Management:Url must be an http URL with a port of its own, not '{Url}'.", [nameof(Url)]);
        }
    }
}
