using Supermarket.LoadTest.Live;

namespace Supermarket.LoadTest.Reporting;

/// <summary>Everything a report is written from.</summary>
public sealed record FinishedRun(
    LoadOptions Options,
    RunResult Result,
    RunSummary Summary,
    IReadOnlyList<RequestRecord> Requests,
    IReadOnlyList<TimelineSample> Timeline,
    IReadOnlyList<ZoneState> Zones,
    SystemUnderTest System,
    string DashboardFrame);
