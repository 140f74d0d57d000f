using System.ComponentModel.DataAnnotations;

namespace Supermarket.ServiceDefaults.WarmUp;

/// <summary>Whether a service warms its hot paths up before it says ready (<see cref="IStartupWarmUp"/>). Section
/// <c>WarmUp</c>.</summary>
public sealed class WarmUpOptions
{
    public const string Section = "WarmUp";

    /// <summary>Off, the service is ready as soon as its other checks pass, and its first requests are compiled as they
    /// come.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>The longest a warm-up may hold readiness back: past it the service says ready, cold, with a warning.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:05:00")]
    public TimeSpan Bound { get; set; } = TimeSpan.FromSeconds(30);
}
