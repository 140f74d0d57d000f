using System.Text.RegularExpressions;

namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// What every part of the system printed, as <c>aspire logs --timestamps</c> (<c>time [resource] text</c>) or
/// <c>docker-compose logs --timestamps</c> (<c>container | time text</c>) give it: in time order, without terminal
/// colours, and the warnings and errors among it, each with the indented lines that carry on its message (.NET's
/// console logger writes the category on one line and the message on the next).
/// </summary>
public static partial class SystemLogLines
{
    /// <summary>The lines in time order (a line without a time keeps its place after the one before it).</summary>
    public static IReadOnlyList<string> InTimeOrder(string logs)
    {
        var lines = Parse(logs);
        // OrderBy is stable: lines of one instant stay in the order they were printed.
        return [.. lines.OrderBy(line => line.Time, StringComparer.Ordinal).Select(line => line.Raw)];
    }

    /// <summary>The last <paramref name="count"/> lines of warnings and errors, in time order.</summary>
    public static IReadOnlyList<string> WarningsAndErrors(string logs, int count)
    {
        var lines = Parse(logs).OrderBy(line => line.Time, StringComparer.Ordinal).ToList();
        var noteworthy = new List<string>();
        for (var index = 0; index < lines.Count; index++)
        {
            if (!WarningOrError().IsMatch(lines[index].Text))
            {
                continue;
            }

            noteworthy.Add(lines[index].Raw);
            while (index + 1 < lines.Count && lines[index + 1].Resource == lines[index].Resource && Indented().IsMatch(lines[index + 1].Text))
            {
                noteworthy.Add(lines[++index].Raw);
            }
        }

        return [.. noteworthy.TakeLast(count)];
    }

    private sealed record Line(string Resource, string Time, string Text, string Raw);

    private static List<Line> Parse(string logs)
    {
        var parsed = new List<Line>();
        var time = "";
        foreach (var raw in Colours().Replace(logs, "").Split('\n').Select(line => line.TrimEnd()).Where(line => line.Length > 0))
        {
            var match = Aspire().Match(raw) is { Success: true } aspire ? aspire : Compose().Match(raw);
            if (match.Success)
            {
                time = match.Groups["time"].Value;
                parsed.Add(new Line(match.Groups["resource"].Value, time, match.Groups["text"].Value, raw));
            }
            else
            {
                parsed.Add(new Line("", time, raw, raw));
            }
        }

        return parsed;
    }

    [GeneratedRegex(@"^(?<time>\d{4}-\d\d-\d\dT\S+) \[(?<resource>[^\]]+)\] ?(?<text>.*)$")]
    private static partial Regex Aspire();

    [GeneratedRegex(@"^(?<resource>\S+)\s+\| (?<time>\d{4}-\d\d-\d\dT\S+) ?(?<text>.*)$")]
    private static partial Regex Compose();

    /// <summary>A line .NET's console logger (warn:, fail:, crit:), RabbitMQ ([warning], [error]) or MariaDB
    /// ([Warning], [ERROR]) wrote as a warning or an error.</summary>
    [GeneratedRegex(@"^(warn|fail|crit):|\[(warning|error|critical)\]", RegexOptions.IgnoreCase)]
    private static partial Regex WarningOrError();

    [GeneratedRegex(@"^\s{2,}\S")]
    private static partial Regex Indented();

    /// <summary>The terminal colours the Aspire CLI writes even into a pipe.</summary>
    [GeneratedRegex(@"\x1B\[[0-9;]*[A-Za-z]")]
    private static partial Regex Colours();
}
