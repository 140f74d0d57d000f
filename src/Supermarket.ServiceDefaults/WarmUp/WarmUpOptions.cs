using System.ComponentModel.DataAnnotations;

namespace Supermarket.ServiceDefaults.WarmUp;

/// <summary>Whether a service warms its hot paths up before it says ready. Section <c>WarmUp</c>.</summary>
public sealed class WarmUpOptions
{
    public const string Section = "WarmUp";

    public bool Enabled { get; set; } = true;

    [Range(typeof(TimeSpan), "00:00:01", "00:05:00")]
    public TimeSpan Bound { get; set; } = TimeSpan.FromSeconds(30);
}
