using System.ComponentModel.DataAnnotations;

namespace Supermarket.Api.Live;

/// <summary>How the live page's questions are asked. Section <c>Live</c>.</summary>
public sealed class LiveOptions
{
    public const string Section = "Live";

    /// <summary>How often a question some open page watches is asked again: the pages' bars move at this pace, and
    /// every page watching the question shares the one asking.</summary>
    [Range(typeof(TimeSpan), "00:00:00.200", "00:01:00")]
    public TimeSpan UpdateInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>The most questions the open pages may watch at once (each asked every <see cref="UpdateInterval"/>);
    /// a page that would watch another is told to try again later: what pages cost the aggregators is bounded whatever
    /// is opened.</summary>
    [Range(1, 100_000)]
    public int MaxQuestionsWatched { get; set; } = 500;

    /// <summary>How recently a replica of a shard must have answered to count as answering on the page.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan ReplicaSeenWithin { get; set; } = TimeSpan.FromSeconds(10);
}
