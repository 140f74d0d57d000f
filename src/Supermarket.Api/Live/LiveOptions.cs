using System.ComponentModel.DataAnnotations;

namespace Supermarket.Api.Live;

/// <summary>How the live page's questions are asked. Section <c>Live</c>.</summary>
public sealed class LiveOptions
{
    public const string Section = "Live";

    [Range(typeof(TimeSpan), "00:00:00.200", "00:01:00")]
    public TimeSpan UpdateInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Bounds what open pages cost the aggregators, whatever is opened.</summary>
    [Range(1, 100_000)]
    public int MaxQuestionsWatched { get; set; } = 500;

    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan ReplicaSeenWithin { get; set; } = TimeSpan.FromSeconds(10);
}
