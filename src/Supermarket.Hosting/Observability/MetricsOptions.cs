using System.ComponentModel.DataAnnotations;

namespace Supermarket.Hosting.Observability;

/// <summary>Where a worker serves its metrics. Section <c>Metrics</c>. The API serves them on its own port at /metrics.</summary>
public sealed class MetricsOptions
{
    public const string Section = "Metrics";

    /// <summary>The worker's metrics port on 127.0.0.1 (<c>http://127.0.0.1:{Port}/metrics</c>); 0 serves none.</summary>
    [Range(0, 65535)]
    public int Port { get; set; }

    /// <summary>The address the port is opened on; <c>+</c> for every interface (in a container).</summary>
    [Required]
    public string Host { get; set; } = "127.0.0.1";
}
