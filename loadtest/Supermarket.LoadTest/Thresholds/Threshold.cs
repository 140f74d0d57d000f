using System.Globalization;
using System.Text.RegularExpressions;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Thresholds;

/// <summary>
/// A bound a run must meet, written as a figure, a comparison and a number, with the figure's unit if you like:
/// <c>p99&lt;=50ms</c>, <c>failures=0</c>, <c>rps&gt;=5000</c>, <c>lag&lt;2s</c>. The figures are
/// <see cref="RunFigure.All"/>. A figure the run did not measure (the lag under --no-verify) breaches it.
/// </summary>
public sealed partial record Threshold(RunFigure Figure, string Comparison, double Bound)
{
    public static readonly string Help =
        "a bound the run must meet, e.g. \"p99<=50ms\", \"failures=0\", \"rps>=5000\", \"lag<=2s\"; repeatable; a breach exits with 2. Figures: "
        + string.Join(", ", RunFigure.All.Select(figure => $"{figure.Name} ({figure.Unit})"));

    public static bool TryParse(string text, out Threshold? threshold, out string error)
    {
        threshold = null;
        var match = Syntax().Match(text);
        if (!match.Success)
        {
            error = $"--threshold \"{text}\" is not <figure><comparison><number>, e.g. \"p99<=50ms\".";
            return false;
        }

        var figure = RunFigure.Find(match.Groups["figure"].Value);
        if (figure is null)
        {
            error = $"--threshold \"{text}\": no figure \"{match.Groups["figure"].Value}\"; one of {string.Join(", ", RunFigure.All.Select(f => f.Name))}.";
            return false;
        }

        var unit = match.Groups["unit"].Value;
        if (unit.Length > 0 && !unit.Equals(figure.Unit, StringComparison.OrdinalIgnoreCase))
        {
            error = $"--threshold \"{text}\": {figure.Name} is in {figure.Unit}, not {unit}.";
            return false;
        }

        threshold = new Threshold(figure, match.Groups["comparison"].Value.Replace("==", "=", StringComparison.Ordinal), double.Parse(match.Groups["bound"].Value, CultureInfo.InvariantCulture));
        error = "";
        return true;
    }

    public ThresholdResult Evaluate(RunResult result)
    {
        var actual = Figure.Read(result);
        var met = actual is { } value && Comparison switch
        {
            "<" => value < Bound,
            "<=" => value <= Bound,
            ">" => value > Bound,
            ">=" => value >= Bound,
            _ => value == Bound,
        };
        return new ThresholdResult(ToString(), Figure.Name, actual, met);
    }

    public override string ToString() => $"{Figure.Name} {Comparison} {Figure.Format(Bound)}";

    [GeneratedRegex(@"^\s*(?<figure>[a-z0-9-]+)\s*(?<comparison><=|>=|<|>|==?)\s*(?<bound>\d+(\.\d+)?)\s*(?<unit>[a-z/%]*)\s*$", RegexOptions.IgnoreCase)]
    private static partial Regex Syntax();
}

/// <summary>A threshold's outcome, as summary.json and the report list it.</summary>
public sealed record ThresholdResult(string Threshold, string Figure, double? Actual, bool Passed);
