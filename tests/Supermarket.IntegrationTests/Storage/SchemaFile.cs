namespace Supermarket.IntegrationTests.Storage;

/// <summary>src/Supermarket.Database/Schema/schema.sql read apart: its header (the comment and blank lines it starts
/// with) and the schema below it, which must be <see cref="MigratedSchema"/>'s rendering of a migrated database.</summary>
public sealed record SchemaFile(string Header, string Schema)
{
    public const string RepositoryPath = "src/Supermarket.Database/Schema/schema.sql";

    /// <summary>How many lines of each side a difference shows.</summary>
    private const int LinesShown = 4;

    public static SchemaFile Parse(string text)
    {
        text = text.ReplaceLineEndings("\n");
        var start = 0;
        while (start < text.Length && (text[start] == '\n' || text.AsSpan(start).StartsWith("--", StringComparison.Ordinal)))
        {
            var end = text.IndexOf('\n', start);
            start = end < 0 ? text.Length : end + 1;
        }

        return new SchemaFile(text[..start], text[start..]);
    }

    /// <summary>The file as it would be with <paramref name="schema"/> below its header: what a developer copies over it.</summary>
    public string With(string schema) => Header + schema;

    /// <summary>Where <paramref name="migrated"/> first departs from the file's schema, by the file's line number and with
    /// the statement it is in, the lines of each side from there; null when they are the same.</summary>
    public string? FirstDifference(string migrated)
    {
        if (migrated == Schema)
        {
            return null;
        }

        var expected = Schema.Split('\n');
        var found = migrated.Split('\n');
        var line = 0;
        while (line < expected.Length && line < found.Length && expected[line] == found[line])
        {
            line++;
        }

        var statement = expected.Take(line + 1).LastOrDefault(text => text.StartsWith("CREATE ", StringComparison.Ordinal));
        var number = Header.Count(c => c == '\n') + line + 1;
        return $"""
            {RepositoryPath}, line {number}{(statement is null ? "" : $", in {statement}")}:
            {Shown(expected, line)}
            the migrated database, from there:
            {Shown(found, line)}
            """;
    }

    private static string Shown(string[] lines, int from) =>
        from >= lines.Length ? "    (nothing more)" : string.Join('\n', lines.Skip(from).Take(LinesShown).Select(text => $"    {text}"));
}
